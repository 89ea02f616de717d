import type { Survey as RendererSurvey } from '@flagstation/service-js/surveys-renderer';
import { Paper, Text } from '@mantine/core';
import { useEffect, useRef, useState } from 'react';
import type { PreviewedSurvey } from './types';

type Renderer = typeof import('@flagstation/service-js/surveys-renderer');

// The renderer of service-js draws the preview, as it draws the survey in people's browsers: a chunk of its own,
// loaded with the first preview.
const loadRenderer = (): Promise<Renderer> => import('@flagstation/service-js/surveys-renderer');

/**
 * The survey as people will see it, one question at a time (`questionIndex`; the number of questions: the thank-you
 * message), drawn by the client's renderer in a shadow root (the app's styles cannot reach it, nor its into the app).
 * Redrawn whenever the survey changes; a preview stores nothing and takes no focus.
 */
export function SurveyPreview({ survey, questionIndex }: { survey: PreviewedSurvey; questionIndex: number }) {
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
    // The builder's survey is one as the API takes it, which the renderer's narrower question types do not spell out.
    const drawn = renderer.renderSurvey(host.current, survey as unknown as RendererSurvey, { preview: true, questionIndex });
    return () => drawn.destroy();
  }, [renderer, survey, questionIndex]);
  return (
    <Paper withBorder radius="md" className="survey-preview-page" aria-label="Preview of the survey" role="region">
      {failed ? (
        <Text size="sm" c="dimmed" p="md">
          The preview could not be loaded.
        </Text>
      ) : (
        <div ref={host} className="survey-preview-host" data-position={survey.appearance?.position ?? 'right'} />
      )}
    </Paper>
  );
}
