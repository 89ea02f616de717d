/** Error tracking as the API gives it (`/api/projects/:id/error_tracking/`). */
import type { components } from '../../api/schema.gen';

type Schemas = components['schemas'];

export type IssueStatus = Schemas['IssueStatus'];
export type ErrorIssue = Schemas['ErrorIssue'];
export type ErrorEvent = Schemas['ErrorEvent'];
export type IssueDetail = Schemas['ErrorIssueDetail'];
export type IssueVolume = Schemas['IssueVolume'];
export type AffectedPerson = Schemas['AffectedPerson'];

/** A stack frame as stored: raw from the client, or mapped to the original source through an uploaded source map. */
export interface StackFrame {
  filename?: string;
  abs_path?: string;
  function: string;
  lineno?: number;
  colno?: number;
  in_app: boolean;
  platform?: string;
  module?: string;
  context_line?: string;
  pre_context?: string[];
  post_context?: string[];
  resolved?: boolean;
  mangled_name?: string;
  raw?: { filename?: string; lineno?: number; colno?: number };
}

export interface ExceptionEntry {
  type: string;
  value: string;
  mechanism?: { type?: string; handled?: boolean; synthetic?: boolean };
  stacktrace?: { type: 'raw' | 'resolved'; frames: StackFrame[]; frames_omitted?: number };
}

export interface ExceptionStep {
  $message: string;
  $timestamp?: string;
  $type?: string;
  [prop: string]: unknown;
}

export const STATUS_INFO: Record<IssueStatus, { label: string; color: string; help: string }> = {
  active: { label: 'Active', color: 'red', help: 'Happening, or not looked at yet.' },
  resolved: { label: 'Resolved', color: 'green', help: 'Fixed: the next occurrence reopens it as a regression.' },
  suppressed: { label: 'Suppressed', color: 'gray', help: 'Ignored: occurrences are still counted, but send no webhooks.' },
};

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** The exceptions of an event's properties, read defensively (the server sanitizes them, but older events may differ). */
export function exceptionsOf(properties: Record<string, unknown>): ExceptionEntry[] {
  const list = properties.$exception_list;
  if (!Array.isArray(list)) return [];
  return list.filter(isObject).map((e) => {
    const stack = isObject(e.stacktrace) ? e.stacktrace : undefined;
    return {
      type: typeof e.type === 'string' ? e.type : 'Error',
      value: typeof e.value === 'string' ? e.value : '',
      mechanism: isObject(e.mechanism) ? (e.mechanism as ExceptionEntry['mechanism']) : undefined,
      stacktrace: stack && {
        type: stack.type === 'resolved' ? 'resolved' : 'raw',
        frames: (Array.isArray(stack.frames) ? stack.frames : []).filter(isObject).map((f) => ({
          ...(f as Partial<StackFrame>),
          function: typeof f.function === 'string' && f.function ? f.function : '?',
          in_app: f.in_app !== false,
        })),
        frames_omitted: typeof stack.frames_omitted === 'number' ? stack.frames_omitted : undefined,
      },
    };
  });
}

/** The `$exception_steps` trail (the last steps before the error), oldest first. */
export function stepsOf(properties: Record<string, unknown>): ExceptionStep[] {
  const steps = properties.$exception_steps;
  if (!Array.isArray(steps)) return [];
  return steps.filter((s): s is ExceptionStep => isObject(s) && typeof s.$message === 'string');
}

/** `file:line:col` of a position (the parts that are there). */
export function position(filename: string | undefined, lineno?: number, colno?: number): string {
  return [filename || '(unknown file)', lineno, lineno !== undefined ? colno : undefined].filter((p) => p !== undefined).join(':');
}
