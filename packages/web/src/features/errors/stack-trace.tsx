import { Badge, Button, Group, Stack, Text, Title, UnstyledButton } from '@mantine/core';
import { useState } from 'react';
import './errors.css';
import { position, type ExceptionEntry, type StackFrame } from './types';

/**
 * The exceptions of one event: for each, its type and message, then its frames with the throw site first. Frames of
 * your code ("in app") are shown and highlighted; runs of library frames fold into one line that opens them. A frame
 * with source context (from a source map's `sourcesContent`, or read by service-node) opens to show its lines with the
 * error line marked; the throw site's opens by itself.
 */
export function StackTrace({ exceptions }: { exceptions: ExceptionEntry[] }) {
  return (
    <Stack gap="lg">
      {exceptions.map((exception, i) => (
        <ExceptionView key={i} exception={exception} causeOf={i > 0} />
      ))}
    </Stack>
  );
}

function ExceptionView({ exception, causeOf }: { exception: ExceptionEntry; causeOf: boolean }) {
  const stack = exception.stacktrace;
  // Stored oldest first (throw site last); read newest first.
  const frames = stack ? [...stack.frames].reverse() : [];
  const throwSite = frames.findIndex((f) => f.in_app);
  const groups = groupFrames(frames);
  const handled = exception.mechanism?.handled;
  return (
    <section aria-label={`${causeOf ? 'Cause' : 'Exception'}: ${exception.type}`}>
      <Stack gap={6} mb="sm">
        {causeOf && (
          <Text size="xs" tt="uppercase" fw={700} c="dimmed">
            Caused by
          </Text>
        )}
        <Group gap="xs" align="baseline">
          <Title order={3} size="h4" className="mono wrap-anywhere">
            {exception.type}
          </Title>
          {handled !== undefined && (
            <Badge size="sm" variant="light" color={handled ? 'gray' : 'orange'}>
              {handled ? 'Handled' : 'Unhandled'}
            </Badge>
          )}
          {exception.mechanism?.type && (
            <Badge size="sm" variant="outline" color="gray" tt="none">
              {exception.mechanism.type}
            </Badge>
          )}
          {stack?.type === 'resolved' && (
            <Badge size="sm" variant="outline" color="gray" tt="none" title="Frames mapped to your original source through an uploaded source map">
              source-mapped
            </Badge>
          )}
        </Group>
        {exception.value && (
          <Text className="mono wrap-anywhere" size="sm" style={{ whiteSpace: 'pre-wrap' }}>
            {exception.value}
          </Text>
        )}
      </Stack>
      {frames.length === 0 ? (
        <Text size="sm" c="dimmed">
          No stack trace came with this exception.
        </Text>
      ) : (
        <ol className="frames" aria-label={`Stack of ${exception.type}, most recent call first`}>
          {groups.map((group) =>
            group.inApp ? (
              group.frames.map(({ frame, index }) => (
                <FrameView key={index} frame={frame} open={index === throwSite || (throwSite === -1 && index === 0)} omittedAfter={omittedAt(stack, index)} />
              ))
            ) : (
              <LibraryFrames key={group.frames[0]!.index} frames={group.frames} omitted={stack} />
            ),
          )}
        </ol>
      )}
    </section>
  );
}

/** Where the 10,000-frame stacks lost their middle (the server keeps the first and last 50): after this many frames, read newest first. */
function omittedAt(stack: ExceptionEntry['stacktrace'], index: number): number | undefined {
  if (!stack?.frames_omitted) return undefined;
  return index === stack.frames.length - 51 ? stack.frames_omitted : undefined;
}

interface IndexedFrame {
  frame: StackFrame;
  index: number;
}

/** Consecutive frames of the same kind (in app, or library) together. */
function groupFrames(frames: StackFrame[]): { inApp: boolean; frames: IndexedFrame[] }[] {
  const groups: { inApp: boolean; frames: IndexedFrame[] }[] = [];
  frames.forEach((frame, index) => {
    const last = groups[groups.length - 1];
    if (last && last.inApp === frame.in_app) last.frames.push({ frame, index });
    else groups.push({ inApp: frame.in_app, frames: [{ frame, index }] });
  });
  return groups;
}

function LibraryFrames({ frames, omitted }: { frames: IndexedFrame[]; omitted: ExceptionEntry['stacktrace'] }) {
  const [open, setOpen] = useState(false);
  const label = `${frames.length} library frame${frames.length === 1 ? '' : 's'}`;
  return (
    <li className="frame-group">
      <Button variant="subtle" color="gray" size="compact-xs" aria-expanded={open} onClick={() => setOpen(!open)} className="frame-group-toggle">
        {open ? `Hide ${label}` : `Show ${label}`}
      </Button>
      {open && (
        <ol className="frames">
          {frames.map(({ frame, index }) => (
            <FrameView key={index} frame={frame} open={false} omittedAfter={omittedAt(omitted, index)} />
          ))}
        </ol>
      )}
    </li>
  );
}

function FrameView({ frame, open: initiallyOpen, omittedAfter }: { frame: StackFrame; open: boolean; omittedAfter?: number }) {
  const hasContext = typeof frame.context_line === 'string';
  const [open, setOpen] = useState(initiallyOpen && hasContext);
  const where = position(frame.filename ?? frame.abs_path, frame.lineno, frame.colno);
  const head = (
    <>
      <span className="frame-function mono">{frame.function}</span>
      <span className="frame-where mono"> at {where}</span>
      {!frame.in_app && (
        <Badge size="xs" variant="outline" color="gray" ml={8} tt="none">
          library
        </Badge>
      )}
    </>
  );
  return (
    <>
      <li className={frame.in_app ? 'frame frame-in-app' : 'frame'}>
        {hasContext ? (
          <UnstyledButton className="frame-head" aria-expanded={open} onClick={() => setOpen(!open)}>
            <span className="frame-chevron" aria-hidden>
              {open ? '▾' : '▸'}
            </span>
            {head}
          </UnstyledButton>
        ) : (
          <div className="frame-head">
            <span className="frame-chevron" aria-hidden />
            {head}
          </div>
        )}
        {frame.resolved && frame.raw && (
          <Text size="xs" c="dimmed" className="frame-raw mono wrap-anywhere">
            minified: {position(frame.raw.filename, frame.raw.lineno, frame.raw.colno)}
            {frame.mangled_name && frame.mangled_name !== '?' && frame.mangled_name !== frame.function ? ` in ${frame.mangled_name}` : ''}
          </Text>
        )}
        {open && hasContext && <SourceContext frame={frame} />}
      </li>
      {omittedAfter !== undefined && (
        <li className="frame frame-omitted">
          <Text size="xs" c="dimmed" fs="italic">
            … {omittedAfter.toLocaleString()} frames omitted (the first and last 50 are kept) …
          </Text>
        </li>
      )}
    </>
  );
}

/** The lines around the frame's position, numbered, the error line marked. */
function SourceContext({ frame }: { frame: StackFrame }) {
  const pre = frame.pre_context ?? [];
  const post = frame.post_context ?? [];
  const line = frame.lineno;
  const first = line !== undefined ? line - pre.length : undefined;
  const lines = [
    ...pre.map((text) => ({ text, error: false })),
    { text: frame.context_line ?? '', error: true },
    ...post.map((text) => ({ text, error: false })),
  ];
  const width = String((first ?? 0) + lines.length).length;
  return (
    <pre className="source" aria-label={`Source of ${frame.filename ?? 'the frame'} around line ${line ?? '?'}`}>
      <code>
        {lines.map((l, i) => {
          const number = first !== undefined ? String(first + i).padStart(width) : '';
          const content = (
            <>
              <span className="source-number" aria-hidden>
                {number}
              </span>
              {l.text || ' '}
            </>
          );
          return l.error ? (
            <mark key={i} className="source-line source-error" title="The line that threw">
              {content}
            </mark>
          ) : (
            <span key={i} className="source-line">
              {content}
            </span>
          );
        })}
      </code>
    </pre>
  );
}
