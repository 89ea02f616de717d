// Screenshots of the surveys service-js draws (dist/surveys-renderer.js, the renderer of its `surveys` extension) on a
// light and on a dark host page whose styles try to break them, into docs/screenshots/survey-<case>-<scheme>.png.
// Usage: after `npm run build -w @flagstation/service-js`,
//   node packages/js/scripts/survey-screenshots.mjs [--chromium /usr/bin/chromium] [case ...]
/* global document, localStorage, window -- the page's, in page.evaluate */
import fs from 'node:fs'
import http from 'node:http'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { parseArgs } from 'node:util'
import { chromium } from 'playwright-core'

const { values: args, positionals: only } = parseArgs({ allowPositionals: true, options: { chromium: { type: 'string', default: '/usr/bin/chromium' } } })
const dist = fileURLToPath(new URL('../dist/', import.meta.url))
const out = fileURLToPath(new URL('../../../docs/screenshots/', import.meta.url))
fs.mkdirSync(out, { recursive: true })

const q = (type, question, extra = {}) => ({ id: `q-${type}-${Math.random().toString(36).slice(2, 6)}`, type, question, ...extra })
const survey = (questions, extra = {}) => ({
  id: 'screenshot',
  name: 'Screenshot',
  type: 'popover',
  questions,
  appearance: { displayThankYouMessage: true, thankYouMessageDescription: 'Your answer helps us decide what to build next.' },
  start_date: '2026-01-01T00:00:00Z',
  ...extra,
})

/** Each case: the survey, and what to do before the picture (a question index for the renderer's preview, a click). */
const cases = {
  open: survey([q('open', 'What could we do better?', { description: 'A sentence or two is plenty.' })]),
  link: survey([
    q('link', 'Join our beta testers', {
      description: 'Try new features first and tell us what you think.',
      link: 'https://example.com/beta',
      buttonText: 'Sign me up',
    }),
  ]),
  nps: survey([
    q('rating', 'How likely are you to recommend us to a friend?', {
      display: 'number',
      scale: 10,
      lowerBoundLabel: 'Unlikely',
      upperBoundLabel: 'Very likely',
    }),
  ]),
  'rating-5': survey([
    q('rating', 'How easy was it to set up your project?', { display: 'number', scale: 5, lowerBoundLabel: 'Hard', upperBoundLabel: 'Easy' }),
  ]),
  'emoji-5': survey([
    q('rating', 'How do you feel about the new editor?', { display: 'emoji', scale: 5, lowerBoundLabel: 'Not at all', upperBoundLabel: 'Love it' }),
  ]),
  'emoji-3': survey([q('rating', 'Was this page helpful?', { display: 'emoji', scale: 3, lowerBoundLabel: 'No', upperBoundLabel: 'Yes' })]),
  thumbs: survey([q('rating', 'Did the export work?', { display: 'emoji', scale: 2 })], { appearance: { position: 'center' } }),
  single: survey([
    q('single_choice', 'What did you come here for?', { choices: ['Feature flags', 'Early access', 'Product analytics', 'Other'], hasOpenChoice: true }),
  ]),
  multiple: survey([
    q('multiple_choice', 'Which integrations do you use?', { choices: ['Slack', 'GitHub', 'Linear', 'Jira'], description: 'Pick all that apply.' }),
  ]),
  thanks: survey([q('open', 'What could we do better?')]),
  branded: survey([q('rating', 'How would you rate our support?', { display: 'number', scale: 7, lowerBoundLabel: 'Poor', upperBoundLabel: 'Great' })], {
    appearance: {
      backgroundColor: '#1e293b',
      borderColor: '#334155',
      submitButtonColor: '#f59e0b',
      ratingButtonActiveColor: '#f59e0b',
      ratingButtonColor: '#0f172a',
      position: 'top_right',
    },
  }),
  widget: survey([q('open', 'Found a bug? Have an idea?')], { type: 'widget', appearance: { widgetLabel: 'Feedback', widgetColor: '#4f46e5' } }),
  'widget-open': survey([q('open', 'Found a bug? Have an idea?')], { type: 'widget', appearance: { widgetLabel: 'Feedback', widgetColor: '#4f46e5' } }),
  inline: survey([q('single_choice', 'How did you hear about us?', { choices: ['A friend', 'Search', 'Social media'] })]),
}

const host = (scheme) => `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Host page (${scheme})</title><style>
  /* a host page whose styles would break a survey drawn in the light DOM */
  body { margin: 0; font: 22px/3 Georgia, serif; ${scheme === 'dark' ? 'background: #0b1020; color: #e5e7eb;' : 'background: #fafafa; color: #111827;'} }
  * { box-sizing: content-box !important; letter-spacing: 2px; }
  button { background: hotpink; border-radius: 0; font-size: 30px; }
  input, textarea { display: none; }
  div { border: 3px dashed orange; }
  main { padding: 24px 40px; }
  #inline { width: 340px; }
</style></head><body><main><h1>Acme dashboard</h1><p>Revenue is up 12% this week.</p><div id="inline"></div></main></body></html>`

const server = http.createServer((req, res) => {
  const url = new URL(req.url, 'http://x')
  if (url.pathname === '/' || url.pathname === '/light' || url.pathname === '/dark') {
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' })
    return res.end(host(url.pathname === '/dark' ? 'dark' : 'light'))
  }
  const file = path.join(dist, path.normalize(url.pathname))
  if (!file.startsWith(dist) || !fs.existsSync(file)) return res.writeHead(404).end()
  res.writeHead(200, { 'content-type': 'text/javascript; charset=utf-8' })
  fs.createReadStream(file).pipe(res)
})
await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve))
const base = `http://127.0.0.1:${server.address().port}`

const browser = await chromium.launch({
  executablePath: args.chromium,
  args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--no-first-run'],
})
try {
  for (const [name, s] of Object.entries(cases)) {
    if (only.length && !only.includes(name)) continue
    for (const scheme of ['light', 'dark']) {
      const page = await browser.newPage({ viewport: { width: 900, height: 620 }, colorScheme: scheme })
      await page.goto(`${base}/${scheme}`)
      await page.evaluate(
        async ({ s, name }) => {
          const { renderSurvey } = await import('/surveys-renderer.js')
          localStorage.clear()
          window.drawn = renderSurvey(name === 'inline' ? document.querySelector('#inline') : document.body, s, { inline: name === 'inline' })
        },
        { s, name },
      )
      if (name === 'widget-open') await page.getByRole('button', { name: 'Feedback' }).click()
      if (name === 'thanks') {
        await page.getByRole('textbox').fill('More keyboard shortcuts, please.')
        await page.getByRole('button', { name: 'Submit' }).click()
      }
      if (name === 'single') await page.getByRole('radio', { name: 'Product analytics' }).check({ force: true })
      if (name === 'nps') await page.getByRole('radio', { name: '9' }).check({ force: true })
      if (name === 'emoji-5') await page.getByRole('radio', { name: /^Satisfied/ }).check({ force: true })
      await page.waitForTimeout(300)
      await page.screenshot({ path: path.join(out, `survey-${name}-${scheme}.png`) })
      await page.close()
    }
  }
} finally {
  await browser.close()
  server.close()
}
console.log(`screenshots in ${out}`)
