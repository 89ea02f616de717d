import type { Client } from '../../core/client'
import type { ExtensionOf } from '../../core/extension'
import type { FlagsApi } from '../../flags/feature'
import type { DisplaySurveyOptions, Survey, SurveysCallback } from '../../surveys/types'
import { createActivation } from './activation'
import { flagKeysOn, isRunning, pageMatches, whyNot } from './eligibility'
import { eventProperties, type SurveyEventName } from './events'
import { createList } from './list'
import { renderSurvey, type RenderedSurvey, type RenderOptions } from './render/renderer'
import { firstAbandon, getInProgress } from './storage'

type SurveysClient = Client & FlagsApi

/** Popovers waiting for their `surveyPopupDelaySeconds`, the one shown first. */
const byDelay = (a: Survey, b: Survey) =>
  +!!getInProgress(b) - +!!getInProgress(a) ||
  +(a.schedule === 'always') - +(b.schedule === 'always') ||
  (a.appearance?.surveyPopupDelaySeconds ?? 0) - (b.appearance?.surveyPopupDelaySeconds ?? 0)

/**
 * Lazy extension `surveys`: loads the running surveys (`list.ts`), shows each popover and widget survey to whom it
 * is for (`eligibility.ts`, `activation.ts`), one popover at a time, draws them (`render/renderer.ts`), sends their
 * events, reports a survey left part way as `survey abandoned` when the page goes away, and answers the surveys
 * feature's calls (`getSurveys`, `getActiveMatchingSurveys`, `renderSurvey`, `displaySurvey`). Conditions are
 * checked again every second while the page is visible (the URL or the page's elements may change).
 */
const surveys: ExtensionOf<SurveysClient> = {
  name: 'surveys',
  start(client, _early, heard = []) {
    const log = (...a: unknown[]) => client.config.debug && console.warn('[service-js] surveys:', ...a)
    /** What the extension does on the client's announcements and timers: never an error into the app. */
    const guard =
      <A extends unknown[]>(fn: (...a: A) => void) =>
      (...a: A) => {
        try {
          fn(...a)
        } catch (e) {
          log(e)
        }
      }
    /** Events captured before the list was known: heard once it is (they may show a survey). */
    let early: Parameters<typeof activation.heard>[0][] | undefined = []
    const list = createList(
      client.config,
      guard(() => {
        early?.forEach(heardEvent)
        early = undefined
        evaluate()
      }),
    )
    const activation = createActivation(list.current)
    /** The popover shown, or waiting for its delay (`forced`: by `displaySurvey`, whatever the conditions say). */
    let popover: { id: string; drawn?: RenderedSurvey; timer?: ReturnType<typeof setTimeout>; forced?: boolean } | undefined
    const widgets = new Map<string, RenderedSurvey>()
    const triggers = new Map<string, { el: Element; listener: () => void; drawn?: RenderedSurvey }>()

    /** Captures a survey's event (its `$set` as the event's), and reloads flags once a submission is complete. */
    const send = (name: SurveyEventName, { $set, ...props }: Record<string, unknown>) => {
      client.capture(name, props, { $set: $set as Record<string, unknown> | undefined })
      if (name === 'survey sent' && props.$survey_completed) client.reloadFeatureFlags()
    }
    const draw = (host: HTMLElement, s: Survey, options: RenderOptions = {}) =>
      renderSurvey(host, s, { ...options, onEvent: send, onClose: () => (options.onClose?.(), setTimeout(evaluate)) })

    const active = () => list.current().filter((s) => !whyNot(s, client) && pageMatches(s) && activation.allows(s) && flagKeysOn(s, client))

    const showPopover = (s: Survey, options: DisplaySurveyOptions = {}, recheck = false) => {
      hidePopover()
      const show = () => {
        if (recheck && !active().some((x) => x.id === s.id)) return void (popover = undefined)
        const anchorSelector = s.appearance?.widgetSelector
        const anchor = s.appearance?.position === 'next_to_trigger' && anchorSelector ? document.querySelector(anchorSelector) : undefined
        popover = {
          id: s.id,
          forced: !recheck,
          drawn: draw(
            document.body,
            { ...s, type: 'popover' },
            { properties: options.properties, anchor: anchor ?? undefined, onClose: () => (popover = undefined) },
          ),
        }
      }
      const delay = options.ignoreDelay ? 0 : (s.appearance?.surveyPopupDelaySeconds ?? 0)
      popover = { id: s.id, timer: delay > 0 ? setTimeout(show, delay * 1000) : undefined, forced: !recheck }
      if (delay <= 0) show()
    }
    const hidePopover = () => {
      clearTimeout(popover?.timer)
      popover?.drawn?.destroy()
      popover = undefined
    }

    /** A widget with `widgetType: selector`: a click on the app's element opens it. */
    const trigger = (s: Survey) => {
      let el: Element | null = null
      try {
        el = document.querySelector(s.appearance!.widgetSelector!)
      } catch {
        // an invalid selector finds nothing
      }
      const t = triggers.get(s.id)
      if (t && t.el === el) return
      untrigger(s.id)
      if (!el) return
      const listener = () => {
        const open = triggers.get(s.id)
        if (open?.drawn?.isOpen()) return
        if (open) open.drawn = draw(document.body, { ...s, type: 'popover' }, { anchor: el! })
      }
      el.addEventListener('click', listener)
      triggers.set(s.id, { el, listener })
    }
    const untrigger = (id: string) => {
      const t = triggers.get(id)
      if (t?.drawn?.isOpen()) return
      t?.el.removeEventListener('click', t.listener)
      triggers.delete(id)
    }

    /** Shows what should show, takes away what should not any more. */
    function evaluate() {
      if (!list.loaded()) return
      const now = client.has_opted_out_capturing() ? [] : active()
      const ids = new Set(now.map((s) => s.id))
      for (const s of now.filter((x) => x.type === 'popover' || x.type === 'widget').sort(byDelay)) {
        const tab = (s.appearance?.widgetType ?? 'tab') === 'tab'
        if (s.type === 'widget' && tab && !widgets.has(s.id)) widgets.set(s.id, draw(document.body, s))
        else if (s.type === 'widget' && !tab && s.appearance?.widgetSelector) trigger(s)
        else if (s.type === 'popover' && !popover) showPopover(s, {}, true)
      }
      for (const [id, w] of widgets)
        if (!ids.has(id) && !w.isOpen()) {
          w.destroy()
          widgets.delete(id)
        }
      for (const id of triggers.keys()) if (!ids.has(id)) untrigger(id)
      // a popover goes when the page leaves its URL (not when it was answered, which the popover shows itself)
      const shown = popover && list.current().find((s) => s.id === popover!.id)
      if (
        shown &&
        popover?.drawn?.isOpen() &&
        !pageMatches({ ...shown, conditions: { url: shown.conditions?.url, urlMatchType: shown.conditions?.urlMatchType } })
      )
        hidePopover()
      if (popover?.timer && !popover.forced && !ids.has(popover.id)) hidePopover()
    }

    /** Finds a survey by id, from the list (loaded first if needed). */
    const find = (id: string, then: (s: Survey) => void) =>
      list.get((all) => {
        const s = all.find((x) => x.id === id)
        if (!s) return log('no such survey', id)
        if (!['popover', 'widget', 'api'].includes(s.type)) return log(`a survey of type ${s.type} never shows in the app`)
        if (client.has_opted_out_capturing()) return log('capturing is off: no survey shows')
        then(s)
      })

    const calls: Record<string, (...args: never[]) => void> = {
      getSurveys: (callback: SurveysCallback, force?: boolean) => list.get(callback, force),
      getActiveMatchingSurveys: (callback: SurveysCallback, force?: boolean) =>
        list.get((_, context) => callback(context.isLoaded ? active() : [], context), force),
      renderSurvey: (id: string, selector: string) =>
        find(id, (s) => {
          const host = document.querySelector(selector)
          if (host instanceof HTMLElement) draw(host, s, { inline: true })
          else log('no element for', selector)
        }),
      displaySurvey: (id: string, options: DisplaySurveyOptions = {}) =>
        find(id, (s) => {
          const why = options.ignoreConditions ? undefined : isRunning(s) ? whyNot(s, client) : 'not running'
          if (why) return log(`survey ${id} is not shown:`, why)
          if (options.displayType !== 'inline') return showPopover(s, options)
          const host = options.selector ? document.querySelector(options.selector) : null
          if (host instanceof HTMLElement) draw(host, s, { inline: true, properties: options.properties })
        }),
    }

    function heardEvent(event: Parameters<typeof activation.heard>[0]) {
      if (early && !list.loaded()) return void early.push(event)
      const cancelled = activation.heard(event)
      if (popover?.timer && cancelled.includes(popover.id)) hidePopover()
      if (event.event.startsWith('survey ') || list.current().some((s) => s.conditions?.events || s.conditions?.cancelEvents)) evaluate()
    }
    for (const [name, value] of heard) if (name === 'eventCaptured') guard(heardEvent)(value)
    const stops = [
      client.on('eventCaptured', guard(heardEvent)),
      client.on('featureFlagsLoaded', guard(evaluate)),
      client.on(
        'surveys',
        guard(([method, args]) => (calls[method] as (...a: unknown[]) => void)?.(...args)),
      ),
      client.on(
        'unload',
        guard(() => {
          for (const s of list.current()) {
            const progress = getInProgress(s)
            if (progress && firstAbandon(s))
              send('survey abandoned', eventProperties('survey abandoned', s, { id: progress.surveySubmissionId, responses: progress.responses }))
          }
        }),
      ),
    ]
    const tick = setInterval(
      guard(() => !document.hidden && evaluate()),
      1000,
    )
    if (list.loaded()) evaluate()
    list.get(() => {})
    return () => {
      stops.forEach((stop) => stop())
      clearInterval(tick)
      hidePopover()
      widgets.forEach((w) => w.destroy())
      for (const id of [...triggers.keys()]) untrigger(id)
    }
  },
}

export default surveys
