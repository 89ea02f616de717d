import { Paper, Text } from '@mantine/core';
import { useEffect, useRef, useState } from 'react';
import type { PreviewedSurvey as Previewed } from './types';
interface Renderer {
  renderSurvey(host: HTMLElement, survey: Previewed, options: { preview?: boolean; questionIndex?: number }): { destroy(): void };
}

// The renderer of service-js (`@flagstation/service-js/surveys-renderer`) draws the preview, as it draws the survey in
// people's browsers. Until that package exports it, a plain drawing of the question stands in for it here, and only
// here: this function is the one place that changes when it does.
const loadRenderer = (): Promise<Renderer> => Promise.resolve({ renderSurvey: drawPlainly });

/**
 * The survey as people will see it, one question at a time (`questionIndex`), drawn by the client's renderer in a
 * shadow root (the app's styles cannot reach it). Redrawn whenever the survey changes.
 */
export function SurveyPreview({ survey, questionIndex }: { survey: Previewed; questionIndex: number }) {
  const host = useRef<HTMLDivElement>(null);
  const [renderer, setRenderer] = useState<Renderer | null>(null);
  const [failed, setFailed] = useState(false);
  useEffect(() => {
    let live = true;
    loadRenderer().then(
      (r) => live && setRenderer(r),
      () => live && setFailed(true),
    );
    return () => {
      live = false;
    };
  }, []);
  useEffect(() => {
    if (!renderer || !host.current) return;
    const drawn = renderer.renderSurvey(host.current, survey, { preview: true, questionIndex });
    return () => drawn.destroy();
  }, [renderer, survey, questionIndex]);
  return (
    <Paper withBorder radius="md" className="survey-preview-page" aria-label="Preview of the survey" role="region">
      {failed ? (
        <Text size="sm" c="dimmed" p="md">
          The preview could not be loaded.
        </Text>
      ) : (
        <div ref={host} className="survey-preview-host" />
      )}
    </Paper>
  );
}

/** A plain drawing of one question (what stands in for the client's renderer). */
function drawPlainly(host: HTMLElement, survey: Previewed, { questionIndex = 0 }: { questionIndex?: number }) {
  const root = host.shadowRoot ?? host.attachShadow({ mode: 'open' });
  const q = survey.questions[Math.min(questionIndex, survey.questions.length - 1)];
  const a = survey.appearance ?? {};
  const el = (tag: string, text?: string, style = '') => {
    const node = document.createElement(tag);
    if (text !== undefined) node.textContent = text;
    if (style) node.setAttribute('style', style);
    return node;
  };
  const box = el(
    'div',
    undefined,
    `font: 14px/1.4 system-ui, sans-serif; max-width: 320px; margin-left: auto; padding: 16px; border-radius: 10px; border: 1px solid ${a.borderColor ?? '#c9cdd2'}; background: ${a.backgroundColor ?? '#fff'}; color: ${a.textColor ?? '#1f2328'}; box-shadow: 0 4px 14px rgba(0,0,0,.12)`,
  );
  if (q) {
    box.append(el('div', q.question, 'font-weight: 600; margin-bottom: 4px'));
    if (q.description) box.append(el('div', q.description, 'opacity: .75; margin-bottom: 8px'));
    if (q.type === 'open') box.append(el('div', a.placeholder ?? '', 'border: 1px solid #c9cdd2; border-radius: 6px; height: 56px; padding: 6px; opacity: .6'));
    if (q.type === 'rating') {
      const row = el('div', undefined, 'display: flex; gap: 4px; margin: 6px 0');
      const values = q.scale === 10 ? Array.from({ length: 11 }, (_, i) => i) : Array.from({ length: q.scale ?? 5 }, (_, i) => i + 1);
      for (const v of values) row.append(el('div', String(v), 'flex: 1; text-align: center; border: 1px solid #c9cdd2; border-radius: 4px; padding: 4px 0'));
      box.append(row, el('div', `${q.lowerBoundLabel ?? ''} … ${q.upperBoundLabel ?? ''}`, 'font-size: 12px; opacity: .7'));
    }
    const choices = q.choices ?? [];
    choices.forEach((choice, i) => {
      const open = q.hasOpenChoice && i === choices.length - 1;
      box.append(el('div', `${q.type === 'multiple_choice' ? '☐' : '○'} ${choice}${open ? ': …' : ''}`, 'margin: 4px 0'));
    });
    box.append(
      el(
        'div',
        q.buttonText || 'Submit',
        `margin-top: 10px; text-align: center; padding: 8px; border-radius: 6px; background: ${a.submitButtonColor ?? '#1971c2'}; color: ${a.submitButtonTextColor ?? '#fff'}`,
      ),
    );
  }
  root.replaceChildren(box);
  return { destroy: () => root.replaceChildren() };
}
