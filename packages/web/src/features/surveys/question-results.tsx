import { Anchor, Badge, Button, Group, Paper, Progress, Stack, Table, Text, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { useState } from 'react';
import { formatTime, show } from '../../components/format';
import { ANSWERS_PAGE, surveyQueries, type ResultFilters } from './api';
import { questionTypeLabel, scaleValues } from './labels';
import type { QuestionResults, SurveyAnswer, SurveyQuestion } from './types';

const share = (count: number, total: number) => (total > 0 ? count / total : 0);
const pct = (count: number, total: number) => `${Math.round(share(count, total) * 100)} %`;

/** One question's results: its choices' counts, its rating's distribution and NPS, its written answers. */
export function QuestionResultsCard({
  projectId,
  surveyId,
  question: q,
  definition,
  filters,
}: {
  projectId: number;
  surveyId: string;
  question: QuestionResults;
  definition?: SurveyQuestion;
  filters: ResultFilters;
}) {
  const id = `question-${q.index}-title`;
  return (
    <Paper withBorder p="md" radius="md" component="section" aria-labelledby={id}>
      <Stack gap="sm">
        <Group justify="space-between" align="flex-start" wrap="nowrap">
          <Stack gap={2} style={{ minWidth: 0 }}>
            <Text size="xs" c="dimmed">
              Question {q.index + 1} · {questionTypeLabel(q.type)}
            </Text>
            <Title order={2} size="h5" id={id} className="wrap-anywhere">
              {q.question}
            </Title>
          </Stack>
          <Badge variant="light" color="gray" style={{ flexShrink: 0 }}>
            {q.responses === 1 ? '1 answer' : `${q.responses.toLocaleString()} answers`}
          </Badge>
        </Group>
        {q.nps && <Nps nps={q.nps} />}
        {q.ratings && <Ratings ratings={q.ratings} scale={definition?.scale} question={q.question} />}
        {q.choices && <Choices choices={q.choices} known={definition?.choices} total={q.responses} question={q.question} />}
        {q.type === 'link' && (
          <Text size="sm" c="dimmed">
            {q.responses.toLocaleString()} followed the link.
          </Text>
        )}
        {q.answers && (q.answers.count > 0 || q.type === 'open') && (
          <Answers projectId={projectId} surveyId={surveyId} question={q} filters={filters} written={q.type !== 'open'} />
        )}
        {q.responses === 0 && !q.answers?.count && (
          <Text size="sm" c="dimmed">
            No answers yet.
          </Text>
        )}
      </Stack>
    </Paper>
  );
}

/** The Net Promoter Score: promoters' share minus detractors', from −100 to 100, with the three groups. */
function Nps({ nps }: { nps: NonNullable<QuestionResults['nps']> }) {
  const total = nps.promoters + nps.passives + nps.detractors;
  const groups = [
    { label: 'Promoters (9–10)', count: nps.promoters, color: 'teal.6' },
    { label: 'Passives (7–8)', count: nps.passives, color: 'gray.5' },
    { label: 'Detractors (0–6)', count: nps.detractors, color: 'red.6' },
  ];
  return (
    <Group gap="xl" align="center" wrap="wrap">
      <Stack gap={0} align="center" miw={110}>
        <Text size="xs" c="dimmed">
          NPS
        </Text>
        {nps.score === null ? (
          <Text fz={40} fw={800} lh={1} c="dimmed" aria-label="No Net Promoter Score yet">
            —
          </Text>
        ) : (
          <Text
            fz={40}
            fw={800}
            lh={1}
            c={nps.score > 0 ? 'teal' : nps.score < 0 ? 'red' : undefined}
            aria-label={`Net Promoter Score ${Math.round(nps.score)}`}
          >
            {nps.score > 0 ? '+' : ''}
            {Math.round(nps.score)}
          </Text>
        )}
      </Stack>
      <Stack gap={6} style={{ flex: '1 1 320px' }}>
        <Progress.Root size={18} radius="sm" aria-hidden>
          {groups.map((g) => (
            <Progress.Section key={g.label} value={share(g.count, total) * 100} color={g.color} />
          ))}
        </Progress.Root>
        <Group gap="lg" wrap="wrap">
          {groups.map((g) => (
            <Group key={g.label} gap={6} wrap="nowrap">
              <span aria-hidden style={{ width: 10, height: 10, borderRadius: 2, background: `var(--mantine-color-${g.color.replace('.', '-')})` }} />
              <Text size="sm">
                {g.label}: <b>{g.count.toLocaleString()}</b> ({pct(g.count, total)})
              </Text>
            </Group>
          ))}
        </Group>
      </Stack>
    </Group>
  );
}

/** A rating's column: on a 0–10 scale, the colour of its NPS group (detractors, passives, promoters). */
const barColor = (value: number, scale?: number) =>
  scale !== 10
    ? 'var(--mantine-color-blue-filled)'
    : value <= 6
      ? 'var(--mantine-color-red-6)'
      : value <= 8
        ? 'var(--mantine-color-gray-5)'
        : 'var(--mantine-color-teal-6)';

/** How many gave each value of the scale, as columns, lowest first; and the mean. */
function Ratings({ ratings, scale, question }: { ratings: { value: number; count: number }[]; scale?: number; question: string }) {
  const byValue = new Map(ratings.map((r) => [r.value, r.count]));
  const values = scale ? scaleValues(scale) : ratings.map((r) => r.value).sort((a, b) => a - b);
  const total = ratings.reduce((sum, r) => sum + r.count, 0);
  const max = Math.max(1, ...ratings.map((r) => r.count));
  const mean = total ? ratings.reduce((sum, r) => sum + r.value * r.count, 0) / total : null;
  return (
    <Stack gap={6}>
      <ol
        aria-label={`Ratings of "${question}"`}
        style={{ display: 'flex', gap: 6, alignItems: 'flex-end', height: 150, listStyle: 'none', margin: 0, padding: 0 }}
      >
        {values.map((v) => {
          const count = byValue.get(v) ?? 0;
          return (
            <li
              key={v}
              aria-label={`${v}: ${count} (${pct(count, total)})`}
              style={{ flex: 1, display: 'flex', flexDirection: 'column', alignItems: 'center', justifyContent: 'flex-end', height: '100%', minWidth: 0 }}
            >
              <Text size="xs" c="dimmed" aria-hidden>
                {count || ''}
              </Text>
              <div
                aria-hidden
                style={{
                  width: '100%',
                  height: `${Math.max(2, (count / max) * 110)}px`,
                  background: count ? barColor(v, scale) : 'var(--mantine-color-default-border)',
                  borderRadius: '4px 4px 0 0',
                }}
              />
              <Text size="sm" fw={500} aria-hidden>
                {v}
              </Text>
            </li>
          );
        })}
      </ol>
      {mean !== null && (
        <Text size="sm" c="dimmed">
          Mean {mean.toFixed(1)} over {total.toLocaleString()} ratings
        </Text>
      )}
    </Stack>
  );
}

/** Each choice's count as a bar, most chosen first; answers people wrote themselves are marked. */
function Choices({ choices, known, total, question }: { choices: { value: string; count: number }[]; known?: string[]; total: number; question: string }) {
  const sorted = [...choices].sort((a, b) => b.count - a.count);
  const max = Math.max(1, ...sorted.map((c) => c.count));
  return (
    <Stack gap={6} role="list" aria-label={`Choices of "${question}"`}>
      {sorted.map((c) => {
        const written = known !== undefined && !known.includes(c.value);
        return (
          <div
            key={c.value}
            className="survey-bar"
            role="listitem"
            aria-label={`${c.value}: ${c.count} (${pct(c.count, total)})${written ? ', written in' : ''}`}
          >
            <div className="survey-bar-fill" style={{ width: `${(c.count / max) * 100}%` }} aria-hidden />
            <div className="survey-bar-text" aria-hidden>
              <Group gap={6} wrap="nowrap" style={{ minWidth: 0 }}>
                <Text size="sm" truncate>
                  {c.value}
                </Text>
                {written && (
                  <Badge size="xs" variant="outline" color="gray">
                    written in
                  </Badge>
                )}
              </Group>
              <Text size="sm" fw={600} style={{ flexShrink: 0 }}>
                {c.count.toLocaleString()} · {pct(c.count, total)}
              </Text>
            </div>
          </div>
        );
      })}
    </Stack>
  );
}

/** An answer's text: a list of choices joined, anything else as written. */
const answerText = (value: unknown) => (Array.isArray(value) ? value.map(String).join(', ') : typeof value === 'string' ? value : show(value));

/**
 * Written answers, newest first, a page at a time, each with the person who wrote it. The first page comes with the
 * results; the next ones are asked for with the offset (the results' other numbers do not change).
 */
function Answers({
  projectId,
  surveyId,
  question,
  filters,
  written,
}: {
  projectId: number;
  surveyId: string;
  question: QuestionResults;
  filters: ResultFilters;
  written: boolean;
}) {
  const [offset, setOffset] = useState(0);
  const page = useQuery({ ...surveyQueries.results(projectId, surveyId, filters, { question: question.id, offset }), enabled: offset > 0 });
  const answers = offset === 0 ? question.answers : page.data?.questions.find((x) => x.id === question.id)?.answers;
  const count = question.answers?.count ?? 0;
  if (count === 0)
    return (
      <Text size="sm" c="dimmed">
        No written answers yet.
      </Text>
    );
  return (
    <Stack gap="xs">
      <Text size="sm" fw={500}>
        {written ? 'Written-in answers' : 'Answers'} ({count.toLocaleString()})
      </Text>
      <Table.ScrollContainer minWidth={560}>
        <Table aria-label={`Answers to "${question.question}"`} verticalSpacing="xs" striped>
          <Table.Thead>
            <Table.Tr>
              <Table.Th>Answer</Table.Th>
              <Table.Th w={220}>Person</Table.Th>
              <Table.Th w={210}>When</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody style={{ opacity: offset > 0 && page.isFetching ? 0.6 : 1 }}>
            {(answers?.results ?? []).map((a: SurveyAnswer) => (
              <Table.Tr key={`${a.submission_id}-${a.timestamp}`}>
                <Table.Td className="wrap-anywhere" style={{ whiteSpace: 'pre-wrap' }}>
                  {answerText(a.value)}
                </Table.Td>
                <Table.Td className="wrap-anywhere">
                  <Anchor component={Link} to={`/project/${projectId}/persons/${encodeURIComponent(a.distinct_id)}`} size="sm" className="mono">
                    {a.distinct_id}
                  </Anchor>
                </Table.Td>
                <Table.Td>
                  <Text size="sm">{formatTime(a.timestamp)}</Text>
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </Table.ScrollContainer>
      {count > ANSWERS_PAGE && (
        <Group justify="space-between">
          <Text size="xs" c="dimmed">
            {offset + 1}–{Math.min(offset + ANSWERS_PAGE, count)} of {count.toLocaleString()}
          </Text>
          <Group gap="xs">
            <Button
              size="xs"
              variant="default"
              disabled={offset === 0}
              onClick={() => setOffset(Math.max(0, offset - ANSWERS_PAGE))}
              aria-label={`Newer answers to question ${question.index + 1}`}
            >
              Newer
            </Button>
            <Button
              size="xs"
              variant="default"
              disabled={offset + ANSWERS_PAGE >= count}
              onClick={() => setOffset(offset + ANSWERS_PAGE)}
              aria-label={`Older answers to question ${question.index + 1}`}
            >
              Older
            </Button>
          </Group>
        </Group>
      )}
    </Stack>
  );
}
