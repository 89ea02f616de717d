import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import type { Service, Survey } from 'service-js'
import { clearStorage, client, network, settle, token } from './helpers'

/* eslint-disable @typescript-eslint/no-explicit-any -- wire JSON */

let net: ReturnType<typeof network>
const clients: Service[] = []
// The first import of the extension's sources takes a while in a test run: done once, before the tests time anything.
beforeAll(() => import('../src/extensions/surveys'))
beforeEach(() => {
  clearStorage()
  net = network()
  history.replaceState(null, '', '/')
})
// The extension of a finished test keeps checking its surveys every second: opted out, it shows none.
afterEach(() => {
  clients.splice(0).forEach((c) => c.opt_out_capturing())
  document.body.replaceChildren()
})

/** A survey (an `api` one, which nothing draws, unless said otherwise). */
const survey = (id: string, extra: Partial<Survey> = {}): Survey => ({
  id,
  name: `Survey ${id}`,
  type: 'api',
  questions: [{ id: `${id}-q`, type: 'open', question: `Question of ${id}?` }],
  start_date: '2026-01-01T00:00:00Z',
  end_date: null,
  internal_targeting_flag_key: `survey-targeting-${id}-custom`,
  ...extra,
})

/** /flags answering these flags (v2); the survey flags of `ids` on unless listed. */
const flagsOn = (flags: Record<string, boolean | string>) => ({
  flags: Object.fromEntries(
    Object.entries(flags).map(([key, v]) => [key, { key, enabled: v !== false, variant: typeof v === 'string' ? v : null, metadata: {} }]),
  ),
  errorsWhileComputingFlags: false,
})

/** A client whose /flags turns on the flags given (and each survey's internal flag), with these surveys running. */
async function withSurveys(surveys: Survey[], flags: Record<string, boolean | string> = {}, options = {}) {
  const tok = token()
  net.surveys = { surveys }
  net.flags = flagsOn({ ...Object.fromEntries(surveys.map((s) => [s.internal_targeting_flag_key, true])), ...flags })
  const c = client(tok, { advanced_disable_flags: false, ...options })
  clients.push(c)
  await settle(60)
  return { c, tok }
}
const active = (c: Service, force = false) => new Promise<string[]>((resolve) => c.getActiveMatchingSurveys((s) => resolve(s.map((x) => x.id)), force))
const shown = () => [...document.querySelectorAll('svc-survey')].map((el) => el.shadowRoot!.querySelector('legend, label.title, p.title')?.textContent)
const surveyRequests = () => net.sent.filter((r) => r.url.includes('/api/surveys/'))
const root = () => document.querySelector('svc-survey')!.shadowRoot!
const popover = (id: string, extra: Partial<Survey> = {}) => survey(id, { type: 'popover', ...extra })
/** Waits until `check` holds (the extension's chunk loads, its timers run). */
async function until(check: () => boolean, ms = 3000) {
  const end = Date.now() + ms
  while (!check()) {
    if (Date.now() > end) throw new Error('timed out')
    await settle(10)
  }
}

describe('the surveys feature in the core', () => {
  it('loads nothing when /flags turns on no survey flag: no request for surveys, nothing drawn', async () => {
    const tok = token()
    net.flags = flagsOn({ 'new-ui': true, 'survey-targeting-x-custom': false })
    clients.push(client(tok, { advanced_disable_flags: false }))
    await settle(60)
    expect(net.flagRequests(tok)).toHaveLength(1)
    expect(surveyRequests()).toEqual([])
    expect(document.querySelector('svc-survey')).toBeNull()
  })

  it('a survey flag on loads the extension, which fetches GET /api/surveys/?token= and shows the popover', async () => {
    const { tok } = await withSurveys([popover('a')])
    await until(() => shown().length > 0)
    expect(surveyRequests().map((r) => [r.method, r.url])).toEqual([['GET', `http://localhost:8000/api/surveys/?token=${tok}`]])
    expect(shown()).toEqual(['Question of a?'])
  })

  it('the calls work before init and answer once the extension runs; getSurveys caches the list for 5 minutes', async () => {
    const tok = token()
    net.surveys = { surveys: [survey('a')] }
    const c = client(tok)
    clients.push(c)
    const first = await new Promise<any[]>((resolve) => c.getSurveys((s, context) => resolve([s.map((x) => x.id), context])))
    expect(first).toEqual([['a'], { isLoaded: true }])
    await new Promise((resolve) => c.getSurveys(resolve))
    expect(surveyRequests()).toHaveLength(1)
    await new Promise((resolve) => c.getSurveys(resolve, true))
    expect(surveyRequests()).toHaveLength(2)
    expect(JSON.parse(localStorage.getItem(`svc_${tok}_surveys`)!)).toMatchObject({ surveys: [{ id: 'a' }], at: expect.any(Number) })
  })

  it('says why there are no surveys when the service cannot answer', async () => {
    net.onSurveys = () => ({ status: 500 })
    const c = client(token())
    clients.push(c)
    const [surveys, context] = await new Promise<any[]>((resolve) => c.getSurveys((...a) => resolve(a)))
    expect(surveys).toEqual([])
    expect(context).toEqual({ isLoaded: false, error: 'surveys could not be loaded: api_error_500' })
  })

  it('never throws into the app, whatever it is given', async () => {
    const c = client(token())
    clients.push(c)
    expect(() => {
      c.renderSurvey('no-such-survey', '#nope')
      c.displaySurvey(undefined as never, null as never)
      c.getSurveys(null as never)
      c.getActiveMatchingSurveys((() => {
        throw new Error('the app’s bug')
      }) as never)
    }).not.toThrow()
    await settle(40)
  })
})

describe('eligibility (as posthog-js decides it)', () => {
  it('running in-app surveys whose flags are on: linked flag (and variant), targeting flag, internal flag', async () => {
    const { c } = await withSurveys(
      [
        survey('running'),
        survey('ended', { end_date: '2026-02-01T00:00:00Z' }),
        survey('not-started', { start_date: null }),
        survey('external', { type: 'external_survey' }),
        popover('popover'),
        survey('linked-on', { linked_flag_key: 'beta' }),
        survey('linked-off', { linked_flag_key: 'off-flag' }),
        survey('variant-ok', { linked_flag_key: 'exp', conditions: { linkedFlagVariant: 'test' } }),
        survey('variant-other', { linked_flag_key: 'exp', conditions: { linkedFlagVariant: 'control' } }),
        survey('variant-any', { linked_flag_key: 'exp', conditions: { linkedFlagVariant: 'any' } }),
        survey('targeted', { targeting_flag_key: 'survey-targeting-t' }),
        survey('not-targeted', { targeting_flag_key: 'survey-targeting-u' }),
        survey('answered', { internal_targeting_flag_key: 'survey-targeting-answered-custom' }),
      ],
      { beta: true, 'off-flag': false, exp: 'test', 'survey-targeting-t': true, 'survey-targeting-u': false, 'survey-targeting-answered-custom': false },
    )
    expect(await active(c)).toEqual(['running', 'popover', 'linked-on', 'variant-ok', 'variant-any', 'targeted'])
  })

  it('a survey seen (answered or dismissed on this device) does not come back, unless repeatable or in a new iteration', async () => {
    localStorage.setItem('seenSurvey_seen', 'true')
    localStorage.setItem('seenSurvey_always', 'true')
    localStorage.setItem('seenSurvey_iter_1', 'true')
    localStorage.setItem('seenSurvey_repeat', 'true')
    const { c } = await withSurveys([
      survey('seen'),
      survey('always', { schedule: 'always' }),
      survey('iter', { schedule: 'recurring', current_iteration: 2 }),
      survey('repeat', { conditions: { events: { repeatedActivation: true, values: [{ name: 'opened' }] } } }),
    ])
    c.capture('opened')
    expect(await active(c)).toEqual(['always', 'iter', 'repeat'])
  })

  it('the internal flag off is ignored for repeatable surveys; a recurring one waits for flags from the service', async () => {
    const { c } = await withSurveys([survey('always', { schedule: 'always' }), survey('recurring', { schedule: 'recurring', current_iteration: 1 })], {
      'survey-targeting-always-custom': false,
    })
    expect(await active(c)).toEqual(['always', 'recurring'])
    // from cached flags only (no answer from the service yet), a recurring survey is not shown
    const next = client(token(), { advanced_disable_flags: true })
    clients.push(next)
    net.surveys = { surveys: [survey('recurring', { schedule: 'recurring', current_iteration: 1 })] }
    expect(await active(next)).toEqual([])
  })

  it('waits seenSurveyWaitPeriodInDays after the last survey this device showed', async () => {
    localStorage.setItem('lastSeenSurveyDate', new Date(Date.now() - 3 * 864e5).toISOString())
    const { c } = await withSurveys([
      survey('wait-7', { conditions: { seenSurveyWaitPeriodInDays: 7 } }),
      survey('wait-2', { conditions: { seenSurveyWaitPeriodInDays: 2 } }),
      survey('no-wait'),
    ])
    expect(await active(c)).toEqual(['wait-2', 'no-wait'])
  })

  it('the page: URL (each match type), selector, device type', async () => {
    history.replaceState(null, '', '/billing/plans?x=1')
    const marker = document.createElement('div')
    marker.id = 'checkout'
    document.body.append(marker)
    const { c } = await withSurveys([
      survey('url-contains', { conditions: { url: '/BILLING' } }),
      survey('url-other', { conditions: { url: '/settings' } }),
      survey('url-regex', { conditions: { url: '/billing/\\w+\\?', urlMatchType: 'regex' } }),
      survey('url-not-regex', { conditions: { url: '/billing', urlMatchType: 'not_regex' } }),
      survey('url-exact', { conditions: { url: `${location.origin}/billing/plans?x=1`, urlMatchType: 'exact' } }),
      survey('url-evil-regex', { conditions: { url: '(a+)+$', urlMatchType: 'regex' } }),
      survey('selector', { conditions: { selector: '#checkout' } }),
      survey('selector-missing', { conditions: { selector: '#cart' } }),
      survey('selector-invalid', { conditions: { selector: '##' } }),
      survey('desktop', { conditions: { deviceTypes: ['Desktop'] } }),
      survey('mobile', { conditions: { deviceTypes: ['Mobile'] } }),
      survey('not-mobile', { conditions: { deviceTypes: ['Mobile', 'Tablet'], deviceTypesMatchType: 'not_icontains' } }),
    ])
    expect(await active(c)).toEqual(['url-contains', 'url-regex', 'url-exact', 'selector', 'desktop', 'not-mobile'])
  })

  it('feature_flag_keys: every named flag must be on', async () => {
    const { c } = await withSurveys(
      [
        survey('keys-on', { feature_flag_keys: [{ key: 'flag', value: 'beta' }, { key: 'unset' }] }),
        survey('keys-off', { feature_flag_keys: [{ key: 'flag', value: 'gamma' }] }),
      ],
      { beta: true, gamma: false },
    )
    expect(await active(c)).toEqual(['keys-on'])
  })

  it('events show a survey once captured with matching properties; a cancel event takes it back', async () => {
    const { c } = await withSurveys([
      survey('on-purchase', {
        conditions: {
          events: { values: [{ name: 'purchase', propertyFilters: { plan: { values: ['pro'], operator: 'exact' } } }] },
          cancelEvents: { values: [{ name: 'refund' }] },
        },
      }),
    ])
    expect(await active(c)).toEqual([])
    c.capture('purchase', { plan: 'free' })
    expect(await active(c)).toEqual([])
    c.capture('purchase', { plan: 'pro' })
    expect(await active(c)).toEqual(['on-purchase'])
    c.capture('refund')
    expect(await active(c)).toEqual([])
  })

  it('an event captured while the extension loads still counts', async () => {
    const tok = token()
    // no flags in this client: a survey without an internal flag
    net.surveys = { surveys: [survey('early', { internal_targeting_flag_key: null, conditions: { events: { values: [{ name: 'signed_up' }] } } })] }
    const c = client(tok)
    clients.push(c)
    c.getSurveys(() => {})
    c.capture('signed_up')
    expect(await active(c)).toEqual(['early'])
  })
})

describe('showing surveys', () => {
  it('one popover at a time, on the matching URL only; it goes when the page leaves that URL', async () => {
    history.replaceState(null, '', '/pricing')
    await withSurveys([popover('docs', { conditions: { url: '/docs' } }), popover('pricing', { conditions: { url: '/pricing' } }), popover('other')])
    await until(() => shown().length > 0)
    await settle(50)
    expect(shown()).toEqual(['Question of pricing?'])
    history.replaceState(null, '', '/home')
    await settle(1100)
    expect(shown()).not.toContain('Question of pricing?')
  })

  it('answering sends survey sent with $set at the top of the event, reloads flags, and does not show it again', async () => {
    const { c, tok } = await withSurveys([popover('a')])
    await until(() => shown().length > 0)
    const flagRequests = net.flagRequests(tok).length
    ;(root().querySelector('textarea') as HTMLTextAreaElement).value = 'Love it'
    ;(root().querySelector('form') as HTMLFormElement).requestSubmit()
    await c.flush()
    await settle(30)
    const sent = net.events(tok).find((e) => e.event === 'survey sent')
    expect(sent.properties).toMatchObject({ $survey_id: 'a', '$survey_response_a-q': 'Love it', $survey_completed: true })
    expect(sent.properties).not.toHaveProperty('$set')
    expect(sent.$set).toEqual({ '$survey_responded/a': true })
    expect(net.events(tok).map((e) => e.event)).toEqual(['survey shown', 'survey sent'])
    expect(net.flagRequests(tok).length).toBe(flagRequests + 1)
    expect(shown()).toEqual([])
    expect(await active(c)).toEqual([])
  })

  it('waits surveyPopupDelaySeconds, and a cancel event meanwhile stops it', async () => {
    const { c } = await withSurveys([
      popover('late', { appearance: { surveyPopupDelaySeconds: 0.3 }, conditions: { events: { values: [{ name: 'opened' }] } } }),
      popover('cancelled', {
        appearance: { surveyPopupDelaySeconds: 0.15 },
        conditions: { events: { values: [{ name: 'opened' }] }, cancelEvents: { values: [{ name: 'left' }] } },
      }),
    ])
    await c.loadExtension('surveys')
    c.capture('opened')
    await settle(50)
    expect(shown()).toEqual([])
    c.capture('left')
    await until(() => shown().length > 0)
    expect(shown()).toEqual(['Question of late?'])
  })

  it('sends survey abandoned, once, by beacon when a partly answered survey is left', async () => {
    const two = popover('two', {
      questions: [
        { id: 'r', type: 'rating', question: 'Rate?', display: 'number', scale: 5 },
        { id: 'w', type: 'open', question: 'Why?' },
      ],
    })
    const { c, tok } = await withSurveys([two])
    await until(() => shown().length > 0)
    ;(root().querySelector('input[value="4"]') as HTMLInputElement).click()
    ;(root().querySelector('form') as HTMLFormElement).requestSubmit()
    await c.flush()
    dispatchEvent(new Event('pagehide'))
    dispatchEvent(new Event('pagehide'))
    const beaconed = net.beacons.flatMap((b) => b.body.batch).filter((e) => e.properties.token === tok)
    expect(beaconed.map((e) => e.event)).toEqual(['survey abandoned'])
    expect(beaconed[0].properties).toMatchObject({ $survey_id: 'two', $survey_partially_completed: true, $survey_response_r: 4 })
  })

  it('a widget shows its tab; displaySurvey and renderSurvey show a survey on demand (displaySurvey checks eligibility unless told not to)', async () => {
    const { c } = await withSurveys([
      survey('widget', { type: 'widget', appearance: { widgetLabel: 'Feedback' } }),
      survey('on-demand'),
      survey('not-for-me', { targeting_flag_key: 'survey-targeting-no' }),
    ])
    await until(() => shown().length > 0)
    expect(root().querySelector('.tab')?.textContent).toBe('Feedback')
    c.displaySurvey('not-for-me')
    await settle(30)
    expect(shown()).toEqual([undefined])
    c.displaySurvey('not-for-me', { ignoreConditions: true })
    await settle(30)
    expect(shown()).toEqual([undefined, 'Question of not-for-me?'])
    const slot = document.createElement('div')
    slot.id = 'slot'
    document.body.append(slot)
    c.renderSurvey('on-demand', '#slot')
    await settle(30)
    expect(slot.querySelector('svc-survey')!.shadowRoot!.querySelector('[role=region]')).not.toBeNull()
  })

  it('shows nothing to a user who opted out of capturing', async () => {
    const { c } = await withSurveys([popover('a')], {}, { opt_out_capturing_by_default: true })
    await c.loadExtension('surveys')
    await settle(50)
    expect(shown()).toEqual([])
  })
})
