import type { ReactNode } from 'react'
import { renderToString } from 'react-dom/server'
import { act, cleanup, render, screen } from '@testing-library/react'
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import type { Service, Survey } from 'service-js'
import { ServiceProvider, useActiveSurveys, useSurvey } from '../../src/react'
import { clearStorage, client, network, settle, token } from '../helpers'

let net: ReturnType<typeof network>
const clients: Service[] = []
// The first import of the extension's sources takes a while in a test run: done once, before the tests time anything.
beforeAll(() => import('../../src/extensions/surveys'))
beforeEach(() => {
  clearStorage()
  net = network()
})
afterEach(() => {
  cleanup()
  clients.splice(0).forEach((c) => c.opt_out_capturing())
})

const nps: Survey = {
  id: 'nps',
  name: 'NPS',
  type: 'api',
  start_date: '2026-01-01T00:00:00Z',
  enable_partial_responses: true,
  questions: [
    {
      id: 'score',
      type: 'rating',
      question: 'How likely?',
      display: 'number',
      scale: 10,
      branching: { type: 'response_based', responseValues: { promoters: 'end' } },
    },
    { id: 'why', type: 'open', question: 'What would make it a 10?' },
  ],
}
const onEvent: Survey = {
  ...nps,
  id: 'after-export',
  name: 'Export',
  enable_partial_responses: false,
  conditions: { events: { values: [{ name: 'exported' }] } },
}

const withProvider = (c: Service) => ({ wrapper: ({ children }: { children: ReactNode }) => <ServiceProvider client={c}>{children}</ServiceProvider> })
const setup = (surveys: Survey[]) => {
  const tok = token()
  net.surveys = { surveys }
  const c = client(tok)
  clients.push(c)
  return { c, tok }
}
const sent = async (c: Service, tok: string) => {
  await c.flush()
  return net.events(tok).filter((e) => e.event.startsWith('survey '))
}

function Active() {
  const { surveys, isLoaded } = useActiveSurveys()
  return <p data-testid="active">{isLoaded ? surveys.map((s) => s.id).join(',') || 'none' : 'loading'}</p>
}

describe('useActiveSurveys', () => {
  it('lists the surveys this user may see, and follows the events that show one', async () => {
    const { c } = setup([nps, onEvent])
    render(<Active />, withProvider(c))
    expect(screen.getByTestId('active').textContent).toBe('loading')
    await act(() => settle(80))
    expect(screen.getByTestId('active').textContent).toBe('nps')
    await act(async () => {
      c.capture('exported')
      await settle(40)
    })
    expect(screen.getByTestId('active').textContent).toBe('nps,after-export')
  })

  it('renders on the server with nothing loaded, and sends nothing', () => {
    expect(renderToString(<Active />)).toContain('loading')
  })
})

describe('useSurvey', () => {
  let handle: ReturnType<typeof useSurvey>
  function Nps() {
    handle = useSurvey('nps')
    return <p data-testid="survey">{handle.survey ? `${handle.survey.name}:${handle.active}` : 'none'}</p>
  }

  it('gives the survey and sends what the app’s own components do: shown, answers (partial ones at once), the submission', async () => {
    const { c, tok } = setup([nps])
    render(<Nps />, withProvider(c))
    await act(() => settle(80))
    expect(screen.getByTestId('survey').textContent).toBe('NPS:true')
    let next: number | 'end' = 0
    act(() => {
      handle.show()
      next = handle.answer('score', 6)
    })
    expect(next).toBe(1)
    act(() => {
      next = handle.answer(1, 'Faster exports')
    })
    expect(next).toBe('end')
    await act(async () => {
      handle.submit()
      await settle(40)
    })
    const events = await sent(c, tok)
    expect(events.map((e) => [e.event, e.properties.$survey_completed])).toEqual([
      ['survey shown', undefined],
      ['survey sent', false],
      ['survey sent', false],
      ['survey sent', true],
    ])
    const done = events[3]
    expect(done.properties).toMatchObject({
      $survey_id: 'nps',
      $survey_response_score: 6,
      $survey_response_why: 'Faster exports',
      $survey_response: 6,
      $survey_response_1: 'Faster exports',
    })
    expect(done.$set).toEqual({ '$survey_responded/nps': true })
    expect(new Set(events.slice(1).map((e) => e.properties.$survey_submission_id)).size).toBe(1)
    expect(localStorage.getItem('lastSeenSurveyDate')).not.toBeNull()
    // answered: not for this user any more
    expect(screen.getByTestId('survey').textContent).toBe('NPS:false')
  })

  it('follows branching: a promoter’s answer ends the survey', async () => {
    const { c } = setup([nps])
    render(<Nps />, withProvider(c))
    await act(() => settle(80))
    expect(handle.answer('score', 10)).toBe('end')
  })

  it('submit takes answers by question id; dismiss sends survey dismissed with $set', async () => {
    const { c, tok } = setup([{ ...nps, enable_partial_responses: false }])
    render(<Nps />, withProvider(c))
    await act(() => settle(80))
    act(() => handle.submit({ score: 9 }))
    act(() => handle.dismiss())
    const events = await sent(c, tok)
    expect(events.map((e) => e.event)).toEqual(['survey sent', 'survey dismissed'])
    expect(events[0].properties).toMatchObject({ $survey_response_score: 9, $survey_completed: true })
    expect(events[1].$set).toEqual({ '$survey_dismissed/nps': true })
  })

  it('does nothing for a survey it does not know', async () => {
    const { c, tok } = setup([])
    render(<Nps />, withProvider(c))
    await act(() => settle(80))
    expect(screen.getByTestId('survey').textContent).toBe('none')
    act(() => {
      handle.show()
      expect(handle.answer('score', 1)).toBe('end')
      handle.submit()
      handle.dismiss()
    })
    expect(await sent(c, tok)).toEqual([])
  })
})
