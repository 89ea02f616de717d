import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import type { Survey, SurveyQuestion } from 'service-js'
import { renderSurvey, type RenderOptions } from '../src/surveys-renderer'
import { clearStorage } from './helpers'

/* eslint-disable @typescript-eslint/no-explicit-any -- event properties */

const survey = (questions: Survey['questions'], extra: Partial<Survey> = {}): Survey => ({
  id: 'srv',
  name: 'Feedback',
  type: 'popover',
  questions,
  start_date: '2026-01-01T00:00:00Z',
  ...extra,
})
const nps: SurveyQuestion = {
  id: 'nps',
  type: 'rating',
  question: 'How likely are you to recommend us?',
  display: 'number',
  scale: 10,
  lowerBoundLabel: 'Unlikely',
  upperBoundLabel: 'Very likely',
}
const why: SurveyQuestion = { id: 'why', type: 'open', question: 'Why?', description: 'Tell us more' }
const role: SurveyQuestion = { id: 'role', type: 'single_choice', question: 'Your role?', choices: ['Engineer', 'Designer', 'Other'], hasOpenChoice: true }
const tools: SurveyQuestion = { id: 'tools', type: 'multiple_choice', question: 'Tools?', choices: ['Slack', 'GitHub', 'Jira'] }

let events: [string, any][]
const draw = (s: Survey, options: RenderOptions = {}) => {
  const drawn = renderSurvey(document.body, s, { onEvent: (name, props) => events.push([name, props]), ...options })
  const root = document.querySelector('svc-survey')!.shadowRoot!
  return { drawn, root }
}
const $ = (root: ShadowRoot, selector: string) => root.querySelector(selector) as HTMLElement
const pick = (root: ShadowRoot, label: string) => {
  const input = [...root.querySelectorAll('input')].find((i) => i.getAttribute('aria-label') === label || i.value === label)!
  input.click()
  return input
}
const submit = (root: ShadowRoot) => ($(root, 'form') as HTMLFormElement).requestSubmit()
/** The accessible name of an element: its aria-label, aria-labelledby, or its label's text. */
const nameOf = (root: ShadowRoot, el: Element) =>
  el.getAttribute('aria-label') ||
  (el.getAttribute('aria-labelledby') && root.getElementById(el.getAttribute('aria-labelledby')!)?.textContent) ||
  (el.id && root.querySelector(`label[for="${el.id}"]`)?.textContent) ||
  el.closest('label')?.textContent ||
  el.textContent

beforeEach(() => {
  clearStorage()
  events = []
})
afterEach(() => {
  document.body.replaceChildren()
})

describe('the survey renderer', () => {
  it('draws into a shadow tree whose host resets every inherited style, so the page’s styles reach nothing inside', () => {
    const style = document.createElement('style')
    style.textContent = 'button { display: none } * { color: red }'
    document.head.append(style)
    const { root } = draw(survey([why]))
    expect(root.mode).toBe('open')
    // a constructed stylesheet (no <style>, which a strict Content-Security-Policy would block)
    expect(root.querySelector('style')).toBeNull()
    const css = [...root.adoptedStyleSheets].flatMap((sheet) => [...sheet.cssRules].map((rule) => rule.cssText)).join('\n')
    expect(css).toMatch(/:host\s*\{[^}]*all:\s*initial\s*!important/)
    expect(document.body.querySelectorAll('button, form, textarea')).toHaveLength(0)
    style.remove()
  })

  it('is a dialog named by its question, says it was shown, and takes focus (back to where it was when it closes)', () => {
    const before = document.createElement('button')
    document.body.append(before)
    before.focus()
    const { root } = draw(survey([why]))
    const dialog = $(root, '[role=dialog]')
    expect(nameOf(root, dialog)).toBe('Why?')
    expect(root.activeElement).toBe($(root, 'textarea'))
    expect(events).toEqual([
      ['survey shown', { $survey_id: 'srv', $survey_name: 'Feedback', $survey_iteration: undefined, $survey_iteration_start_date: undefined }],
    ])
    expect(localStorage.getItem('lastSeenSurveyDate')).toMatch(/^\d{4}-/)
    $(root, '.close').click()
    expect(document.activeElement).toBe(before)
    expect(document.querySelector('svc-survey')).toBeNull()
  })

  it('Escape dismisses it: survey dismissed with $set, the survey seen', () => {
    const { root } = draw(survey([why]))
    $(root, 'textarea').dispatchEvent(new KeyboardEvent('keydown', { key: 'Escape', bubbles: true }))
    expect(events.map((e) => e[0])).toEqual(['survey shown', 'survey dismissed'])
    expect(events[1][1]).toMatchObject({ $survey_partially_completed: false, $set: { '$survey_dismissed/srv': true } })
    expect(localStorage.getItem('seenSurvey_srv')).toBe('true')
    expect(document.querySelector('svc-survey')).toBeNull()
  })

  it('labels every control: the rating as a radio group named by its question, each value (bounds included), choices, fields and buttons', () => {
    const { root } = draw(survey([nps]))
    const group = $(root, '[role=radiogroup]')
    expect(nameOf(root, group.querySelector('legend')!)).toBe(nps.question)
    expect([...group.querySelectorAll('input')].map((i) => nameOf(root, i))).toEqual([
      '0, Unlikely',
      '1',
      '2',
      '3',
      '4',
      '5',
      '6',
      '7',
      '8',
      '9',
      '10, Very likely',
    ])
    for (const el of root.querySelectorAll('button, input, textarea'))
      expect([el.outerHTML, nameOf(root, el)?.trim()]).toEqual([el.outerHTML, expect.stringMatching(/\S/)])
    document.body.replaceChildren()
    const again = draw(survey([role, tools, why])).root
    for (const el of again.querySelectorAll('button, input, textarea'))
      expect([el.outerHTML, nameOf(again, el)?.trim()]).toEqual([el.outerHTML, expect.stringMatching(/\S/)])
    expect(nameOf(again, $(again, '.close'))).toBe('Close survey')
  })

  it('names emoji ratings by what they mean', () => {
    const { root } = draw(survey([{ id: 'e', type: 'rating', question: 'Happy?', display: 'emoji', scale: 3 }]))
    expect([...root.querySelectorAll('input')].map((i) => i.getAttribute('aria-label'))).toEqual([
      'Dissatisfied (1 of 3)',
      'Neutral (2 of 3)',
      'Satisfied (3 of 3)',
    ])
    expect(root.querySelectorAll('svg')).toHaveLength(4) // three faces and the close button
  })

  it('keeps submit disabled until a required question has an answer; an optional one may be skipped (null)', () => {
    const { root } = draw(survey([nps, { ...why, optional: true }]))
    const button = () => $(root, '.submit') as HTMLButtonElement
    expect(button().disabled).toBe(true)
    pick(root, '8')
    expect(button().disabled).toBe(false)
    submit(root)
    expect(nameOf(root, $(root, '[role=dialog]'))).toBe('Why?')
    expect(button().disabled).toBe(false)
    submit(root)
    expect(events.at(-1)).toEqual(['survey sent', expect.objectContaining({ $survey_response_nps: 8, $survey_response_why: null, $survey_completed: true })])
  })

  it('sends one complete survey sent at the end, with every answer, the legacy index keys and $set; then closes', () => {
    const onClose = vi.fn()
    const { root } = draw(survey([role, tools, why]), { onClose })
    pick(root, 'Other')
    const other = $(root, 'input.other') as HTMLInputElement
    other.value = 'Product manager'
    other.dispatchEvent(new Event('input'))
    submit(root)
    pick(root, 'Slack')
    pick(root, 'Jira')
    submit(root)
    ;($(root, 'textarea') as HTMLTextAreaElement).value = '  Great tool  '
    submit(root)
    expect(events.map((e) => e[0])).toEqual(['survey shown', 'survey sent'])
    const sent = events[1][1]
    expect(sent).toMatchObject({
      $survey_id: 'srv',
      $survey_completed: true,
      $survey_response_role: 'Product manager',
      $survey_response_tools: ['Slack', 'Jira'],
      $survey_response_why: 'Great tool',
      $survey_response: 'Product manager',
      $survey_response_1: ['Slack', 'Jira'],
      $survey_response_2: 'Great tool',
      $set: { '$survey_responded/srv': true },
    })
    expect(sent.$survey_submission_id).toMatch(/^[\da-f-]{36}$/)
    expect(sent.$survey_questions.map((q: any) => q.id)).toEqual(['role', 'tools', 'why'])
    expect(localStorage.getItem('seenSurvey_srv')).toBe('true')
    expect(localStorage.getItem('inProgressSurvey_srv')).toBeNull()
    expect(onClose).toHaveBeenCalledOnce()
  })

  it('with enable_partial_responses, a survey sent per answered question, one submission id, complete only at the end', () => {
    const { root } = draw(survey([nps, why], { enable_partial_responses: true }))
    pick(root, '3')
    submit(root)
    ;($(root, 'textarea') as HTMLTextAreaElement).value = 'slow'
    submit(root)
    const sent = events.filter((e) => e[0] === 'survey sent').map((e) => e[1])
    expect(sent.map((p) => [p.$survey_completed, p.$survey_response_nps, p.$survey_response_why])).toEqual([
      [false, 3, undefined],
      [true, 3, 'slow'],
    ])
    expect(new Set(sent.map((p) => p.$survey_submission_id)).size).toBe(1)
  })

  it('follows branching: the answer picks the next question, and `end` finishes', () => {
    const s = survey([
      { ...nps, branching: { type: 'response_based', responseValues: { promoters: 'end', detractors: 2 } } },
      { id: 'passive', type: 'open', question: 'What would make it a 10?' },
      { id: 'detractor', type: 'open', question: 'What went wrong?' },
    ])
    let { root } = draw(s)
    pick(root, '2')
    submit(root)
    expect(nameOf(root, $(root, '[role=dialog]'))).toBe('What went wrong?')
    document.body.replaceChildren()
    clearStorage()
    events = []
    root = draw(s).root
    pick(root, '10')
    submit(root)
    expect(events.at(-1)).toEqual(['survey sent', expect.objectContaining({ $survey_completed: true, $survey_response_nps: 10 })])
  })

  it('keeps the answers so far on the device: a reload resumes at the next question, with the same submission', () => {
    const s = survey([nps, why])
    let { root, drawn } = draw(s)
    pick(root, '6')
    submit(root)
    expect(JSON.parse(localStorage.getItem('inProgressSurvey_srv')!)).toMatchObject({ responses: { $survey_response_nps: 6 }, lastQuestionIndex: 1 })
    drawn.destroy()
    ;({ root, drawn } = draw(s))
    expect(nameOf(root, $(root, '[role=dialog]'))).toBe('Why?')
    ;($(root, 'textarea') as HTMLTextAreaElement).value = 'pricing'
    submit(root)
    const sent = events.filter((e) => e[0] === 'survey sent')
    expect(sent).toHaveLength(1)
    expect(sent[0][1]).toMatchObject({ $survey_response_nps: 6, $survey_response_why: 'pricing', $survey_completed: true })
  })

  it('keys what it stores by iteration', () => {
    const { root } = draw(survey([why], { current_iteration: 3 }))
    $(root, '.close').click()
    expect(localStorage.getItem('seenSurvey_srv_3')).toBe('true')
    expect(events[1][1].$set).toEqual({ '$survey_dismissed/srv/3': true })
  })

  it('shows the thank-you message when asked, named and focused, and closes it by itself with autoDisappear', () => {
    vi.useFakeTimers()
    const onClose = vi.fn()
    const { root } = draw(survey([why], { appearance: { displayThankYouMessage: true, thankYouMessageHeader: 'Merci!', autoDisappear: true } }), { onClose })
    ;($(root, 'textarea') as HTMLTextAreaElement).value = 'ok'
    submit(root)
    expect(nameOf(root, $(root, '[role=dialog]'))).toBe('Merci!')
    expect(root.activeElement?.textContent).toBe('Close')
    vi.advanceTimersByTime(5000)
    expect(onClose).toHaveBeenCalledOnce()
    expect(document.querySelector('svc-survey')).toBeNull()
  })

  it('a widget is a tab that opens the survey (aria-expanded), says it was shown then, and gives focus back to the tab', () => {
    const { root } = draw(survey([why], { type: 'widget', appearance: { widgetLabel: 'Ideas?' } }))
    const tab = $(root, '.tab')
    expect([tab.textContent, tab.getAttribute('aria-expanded'), events.length]).toEqual(['Ideas?', 'false', 0])
    tab.click()
    expect([tab.getAttribute('aria-expanded'), events.map((e) => e[0])]).toEqual(['true', ['survey shown']])
    expect(root.activeElement).toBe($(root, 'textarea'))
    $(root, 'textarea').dispatchEvent(new KeyboardEvent('keydown', { key: 'Escape', bubbles: true }))
    expect(root.activeElement).toBe(tab)
    expect(root.querySelector('.box')).toBeNull()
  })

  it('inline and preview surveys sit in the flow of their element, a region without a close button; a preview stores nothing', () => {
    const host = document.createElement('section')
    document.body.append(host)
    renderSurvey(host, survey([nps, why]), { preview: true, questionIndex: 1, onEvent: (n, p) => events.push([n, p]) })
    const root = host.querySelector('svc-survey')!.shadowRoot!
    const box = $(root, '.box')
    expect([box.getAttribute('role'), box.className, box.style.cssText]).toEqual(['region', 'box inline', ''])
    expect(nameOf(root, box)).toBe('Why?')
    expect(root.activeElement).toBeNull()
    ;($(root, 'textarea') as HTMLTextAreaElement).value = 'x'
    submit(root)
    expect(Object.keys(localStorage)).toEqual([])
    expect(events.map((e) => e[0])).toEqual(['survey shown', 'survey sent'])
    // a preview stays drawn when done; another render draws beside it
    renderSurvey(host, survey([nps, why], { appearance: { displayThankYouMessage: true } }), { preview: true, questionIndex: 2 })
    expect(host.querySelectorAll('svc-survey')).toHaveLength(2)
    expect(host.querySelectorAll('svc-survey')[1].shadowRoot!.querySelector('h2')!.textContent).toBe('Thank you for your feedback!')
  })

  it('a link question opens http(s) links only, in a new tab, and answers `link clicked`', () => {
    const open = vi.spyOn(window, 'open').mockReturnValue(null)
    const { root } = draw(survey([{ id: 'l', type: 'link', question: 'Read the docs', link: 'https://example.com/docs', buttonText: 'Open docs' }]))
    expect($(root, '.submit').textContent).toBe('Open docs')
    submit(root)
    expect(open).toHaveBeenCalledWith('https://example.com/docs', '_blank', 'noopener,noreferrer')
    expect(events.at(-1)![1]).toMatchObject({ $survey_response_l: 'link clicked' })
    document.body.replaceChildren()
    open.mockClear()
    const bad = draw(survey([{ id: 'l', type: 'link', question: 'x', link: 'javascript:alert(1)' }])).root
    submit(bad)
    expect(open).not.toHaveBeenCalled()
    open.mockRestore()
  })

  it('shows HTML descriptions as their text, never as HTML', () => {
    const { root } = draw(survey([{ ...why, description: '<b>Bold</b> <img src=x onerror="window.pwned=1">&amp; more', descriptionContentType: 'html' }]))
    expect($(root, '.desc').textContent).toBe('Bold & more')
    expect(root.querySelector('img, b')).toBeNull()
  })

  it('shuffles choices (never in their own order) and keeps the open choice last', () => {
    const { root } = draw(survey([{ ...role, choices: ['A', 'B', 'C', 'D', 'Other'], shuffleOptions: true }]))
    const order = [...root.querySelectorAll('input[type=radio]')].map((i) => (i as HTMLInputElement).value)
    expect(order).not.toEqual(['A', 'B', 'C', 'D', 'Other'])
    expect(order.at(-1)).toBe('Other')
    expect([...order].sort()).toEqual(['A', 'B', 'C', 'D', 'Other'])
  })

  it('takes its colors from the appearance, with readable text on them', () => {
    const { root } = draw(survey([why], { appearance: { backgroundColor: '#111827', submitButtonColor: '#fde68a', position: 'top_left' } }))
    const vars = $(root, '.root').style
    expect(['--bg', '--text', '--submit-text'].map((v) => vars.getPropertyValue(v).trim())).toEqual(['#111827', '#ffffff', '#020617'])
    expect([$(root, '.box').style.top, $(root, '.box').style.left]).toEqual(['30px', '30px'])
  })
})
