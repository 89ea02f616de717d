// Issue 15: captureException and exception autocapture. Real thrown errors from real files, events read back from a
// real service, autocapture in child processes that really crash.
import { spawn } from 'node:child_process';
import { stripVTControlCharacters } from 'node:util';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { exceptionList, parseStack, type ExceptionEntry, type StackFrame } from '../src/exceptions/stack';
import { Service, type ServiceOptions } from '../src/index';
import { BucketRateLimiter } from '../src/exceptions/rate-limit';
import { addSourceContext } from '../src/exceptions/source-context';
import { startService, type RunningService, type StoredEvent } from './service';

let service: RunningService;
/** A folder standing for an app: `app/*.cjs`, a dependency in `node_modules/helper-pkg`, crash scripts. */
let appDir: string;
const require = createRequire(import.meta.url);
const thisFile = fileURLToPath(import.meta.url);

/** The lines of app/lib.cjs; the throw is on the line marked THROW, with a line > 200 chars two lines above. */
const libLines = [
  "'use strict';",
  "const helper = require('helper-pkg');",
  '',
  '// Orders are checked one by one, through the helper.',
  `const banner = '${'x'.repeat(300)}';`,
  'function parseOrder(input) {',
  '  return helper.each([input], (item) => {',
  '    if (item.total < 0) throw new RangeError(`negative total ${item.total}`); // THROW',
  '    return item;',
  '  });',
  '}',
  '',
  'function failWithCause() {',
  "  const low = new TypeError('socket closed');",
  "  const mid = new Error('query failed', { cause: low });",
  "  throw new Error('order not saved', { cause: mid });",
  '}',
  '',
  'module.exports = { parseOrder, failWithCause, banner };',
];
const throwLine = libLines.findIndex((l) => l.includes('// THROW')) + 1;

const flowsSource = `class Order {
  constructor(total) {
    if (total < 0) throw new TypeError('bad total');
  }
}
async function load(total) {
  await null;
  return new Order(total);
}
async function loadAll(totals) {
  return await Promise.all(totals.map(load));
}
function evaluate() {
  return eval('(function evaluated() { throw new Error("in eval"); })()');
}
module.exports = { loadAll, evaluate };
`;

beforeAll(async () => {
  appDir = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'service-node-exceptions-')));
  const write = (file: string, text: string) => {
    fs.mkdirSync(path.dirname(path.join(appDir, file)), { recursive: true });
    fs.writeFileSync(path.join(appDir, file), text);
  };
  write('app/lib.cjs', libLines.join('\n'));
  write('app/flows.cjs', flowsSource);
  write('node_modules/helper-pkg/package.json', '{"name":"helper-pkg","main":"index.cjs"}');
  write('node_modules/helper-pkg/index.cjs', 'exports.each = function each(items, fn) {\n  return items.map(fn);\n};\n');
  service = await startService();
});
afterAll(async () => {
  await service?.close();
  if (appDir) fs.rmSync(appDir, { recursive: true, force: true });
});

/** What a function throws (or rejects with). */
async function thrown(fn: () => unknown): Promise<unknown> {
  try {
    await fn();
  } catch (error) {
    return error;
  }
  throw new Error('expected a throw');
}

const lib = () => require(path.join(appDir, 'app/lib.cjs')) as { parseOrder(o: unknown): unknown; failWithCause(): never };
const flows = () => require(path.join(appDir, 'app/flows.cjs')) as { loadAll(t: number[]): Promise<unknown>; evaluate(): never };
const generic = { type: 'generic', handled: true } as const;
const frames = (entry: ExceptionEntry | undefined) => entry?.stacktrace?.frames ?? [];

describe('Node stack parsing (real thrown errors)', () => {
  it('gives frames oldest first with the throw site last: functions, lines, columns, cwd-relative files, modules, in_app', async () => {
    const error = await thrown(() => lib().parseOrder({ total: -5 }));
    const [entry] = exceptionList(error, generic, undefined, appDir);
    expect(entry).toMatchObject({
      type: 'RangeError',
      value: 'negative total -5',
      mechanism: { type: 'generic', handled: true, synthetic: false, exception_id: 0 },
    });
    expect(entry!.stacktrace!.type).toBe('raw');
    const fs_ = frames(entry);
    const libFile = path.join(appDir, 'app/lib.cjs');
    const helperFile = path.join(appDir, 'node_modules/helper-pkg/index.cjs');
    // Throw site last: the arrow function in lib.cjs, called by Array.map, called by the helper, called by parseOrder.
    expect(fs_.slice(-4)).toEqual([
      expect.objectContaining({ function: 'Object.parseOrder', filename: 'app/lib.cjs', abs_path: libFile, lineno: 7, module: 'app:lib', in_app: true }),
      expect.objectContaining({
        function: 'Object.each',
        filename: 'node_modules/helper-pkg/index.cjs',
        abs_path: helperFile,
        lineno: 2,
        module: 'helper-pkg:index',
        in_app: false,
      }),
      expect.objectContaining({ function: 'Array.map', filename: '<anonymous>', in_app: false }),
      expect.objectContaining({
        function: '?',
        filename: 'app/lib.cjs',
        lineno: throwLine,
        colno: libLines[throwLine - 1]!.indexOf('new RangeError') + 1,
        in_app: true,
      }),
    ]);
    for (const frame of fs_) expect(frame.platform).toBe('node:javascript');
    // This test file called it: an absolute path, in the app.
    expect(fs_.some((f) => f.abs_path === thisFile && f.in_app)).toBe(true);
  });

  it('reads new, async, Promise.all (index n) and eval frames', async () => {
    const rejected = await thrown(() => flows().loadAll([1, -1]));
    const file = path.join(appDir, 'app/flows.cjs');
    const names = frames(exceptionList(rejected, generic, undefined, appDir)[0]).map((f) => [f.function, f.filename, f.lineno, f.in_app]);
    expect(names.slice(-4)).toEqual([
      ['Object.loadAll', 'app/flows.cjs', 11, true], // `at async Object.loadAll`: V8 names a method of module.exports so
      ['Promise.all', 'node:internal/promise', undefined, false], // `at async Promise.all (index 1)`
      ['load', 'app/flows.cjs', 8, true],
      ['new Order', 'app/flows.cjs', 3, true],
    ]);
    const evaluated = frames(exceptionList(await thrown(() => flows().evaluate()), generic, undefined, appDir)[0]);
    // `at evaluated (eval at evaluate (file:14:10), <anonymous>:1:…)`: placed at the eval call in the file.
    expect(evaluated.slice(-3).map((f) => [f.function, f.abs_path, f.lineno])).toEqual([
      ['Object.evaluate', file, 14],
      ['eval', file, 14],
      ['evaluated', file, 14],
    ]);
  });

  it('marks Node internals and node_modules not in_app, and reads file:// URLs and async frames written by V8', () => {
    const stack = [
      'Error: boom',
      '    at Server.<anonymous> (file:///srv/my%20app/server.mjs:12:7)',
      '    at async handler (file:///srv/my%20app/node_modules/fastify/lib/route.js:40:3)',
      '    at process.processTicksAndRejections (node:internal/process/task_queues:95:5)',
      '    at /srv/my app/boot.js:3:1',
      '    at Array.forEach (native)',
    ].join('\n');
    const parsed = parseStack(stack, '/srv/my app');
    expect(parsed.map((f) => [f.function, f.filename, f.abs_path, f.lineno, f.colno, f.module, f.in_app])).toEqual([
      ['Array.forEach', 'native', 'native', undefined, undefined, undefined, false],
      ['?', 'boot.js', '/srv/my app/boot.js', 3, 1, 'boot', true],
      [
        'process.processTicksAndRejections',
        'node:internal/process/task_queues',
        'node:internal/process/task_queues',
        95,
        5,
        'node:internal/process/task_queues',
        false,
      ],
      ['handler', 'node_modules/fastify/lib/route.js', '/srv/my app/node_modules/fastify/lib/route.js', 40, 3, 'fastify.lib:route', false],
      ['Server.?', 'server.mjs', '/srv/my app/server.mjs', 12, 7, 'server', true],
    ]);
  });

  it('keeps the 50 frames nearest the throw site of a deep recursion', async () => {
    function bottom(): never {
      throw new Error('deep');
    }
    const recurse = (n: number): never => (n === 0 ? bottom() : recurse(n - 1));
    const limit = Error.stackTraceLimit;
    Error.stackTraceLimit = 200; // V8 keeps 10 frames unless told otherwise
    const error = await thrown(() => recurse(150)).finally(() => (Error.stackTraceLimit = limit));
    const list = frames(exceptionList(error, generic)[0]);
    expect(list).toHaveLength(50);
    expect(list.at(-1)!.function).toBe('bottom'); // the throw site is last, the outermost frames are gone
    expect(list.slice(0, -1).every((f) => f.function === 'recurse')).toBe(true);
  });
});

describe('source context', () => {
  it('adds ±5 lines around each frame, read from the file, long lines cut', async () => {
    const list = exceptionList(await thrown(() => lib().parseOrder({ total: -1 })), generic, undefined, appDir);
    await addSourceContext(list);
    const site = frames(list[0]).at(-1)!;
    expect(site.context_line).toBe(libLines[throwLine - 1]);
    expect(site.pre_context).toHaveLength(5);
    expect(site.pre_context!.slice(0, 2)).toEqual([libLines[throwLine - 6], libLines[throwLine - 5]]);
    const long = site.pre_context!.find((l) => l.startsWith('const banner'))!;
    expect(long.length).toBeLessThanOrEqual(201);
    expect(long.endsWith('…')).toBe(true);
    expect(site.post_context).toEqual(libLines.slice(throwLine, throwLine + 5));
    // The helper's frame near the top of its file: as many lines as there are.
    const helper = frames(list[0]).find((f) => f.function === 'Object.each')!;
    expect(helper).toMatchObject({
      pre_context: ['exports.each = function each(items, fn) {'],
      context_line: '  return items.map(fn);',
      post_context: ['};', ''],
    });
    // Node's internals and `<anonymous>` have no file to read.
    for (const f of frames(list[0]).filter((f) => !path.isAbsolute(f.abs_path))) expect(f.context_line).toBeUndefined();
  });

  it('skips files it cannot read (gone, not a regular file, beyond their last line) without failing', async () => {
    const gone = path.join(appDir, 'gone.js');
    const folder = appDir; // opens, but is not a regular file
    const frame = (abs_path: string, lineno: number): StackFrame => ({
      platform: 'node:javascript',
      filename: abs_path,
      abs_path,
      function: 'f',
      lineno,
      in_app: true,
    });
    const list: ExceptionEntry[] = [
      {
        type: 'Error',
        value: '',
        mechanism: { type: 'generic', handled: true, synthetic: false, exception_id: 0 },
        stacktrace: { type: 'raw', frames: [frame(gone, 1), frame(folder, 1), frame(path.join(appDir, 'app/lib.cjs'), 999)] },
      },
    ];
    await expect(addSourceContext(list)).resolves.toBeUndefined();
    for (const f of frames(list[0])) expect(f).not.toHaveProperty('context_line');
  });
});

describe('cause chain and values that are not errors', () => {
  it('lists the error, then its causes (chained, with parent ids), each with its own stack', async () => {
    const list = exceptionList(await thrown(() => lib().failWithCause()), generic, undefined, appDir);
    expect(list.map((e) => [e.type, e.value, e.mechanism])).toEqual([
      ['Error', 'order not saved', { type: 'generic', handled: true, synthetic: false, exception_id: 0 }],
      ['Error', 'query failed', { type: 'chained', source: 'cause', handled: true, synthetic: false, exception_id: 1, parent_id: 0 }],
      ['TypeError', 'socket closed', { type: 'chained', source: 'cause', handled: true, synthetic: false, exception_id: 2, parent_id: 1 }],
    ]);
    expect(frames(list[2]).at(-1)).toMatchObject({ function: 'Object.failWithCause', lineno: libLines.findIndex((l) => l.includes('socket closed')) + 1 });
  });

  it('follows at most 4 causes, stops at a cycle, and reads a cause that is not an Error', () => {
    let deep = new Error('cause 10');
    for (let i = 9; i >= 0; i--) deep = new Error(`cause ${i}`, { cause: deep });
    expect(exceptionList(deep, generic).map((e) => e.value)).toEqual(['cause 0', 'cause 1', 'cause 2', 'cause 3', 'cause 4']);
    const a = new Error('a');
    const b = new Error('b', { cause: a });
    (a as { cause?: unknown }).cause = b;
    expect(exceptionList(a, generic).map((e) => e.value)).toEqual(['a', 'b']);
    const withString = new Error('outer', { cause: 'disk full' });
    expect(exceptionList(withString, generic)[1]).toMatchObject({ type: 'Error', value: 'disk full', mechanism: { synthetic: true } });
  });

  it('describes strings, objects, primitives and hostile values, marked synthetic', () => {
    expect(exceptionList('plain string', generic)[0]).toMatchObject({ type: 'Error', value: 'plain string', mechanism: { synthetic: true } });
    expect(exceptionList({ name: 'ApiError', message: 'quota' }, generic)[0]).toMatchObject({ type: 'ApiError', value: 'quota' });
    expect(exceptionList({ code: 1, at: 2 }, generic)[0]!.value).toBe('Object captured as exception with keys: at, code');
    expect(exceptionList(42, generic)[0]!.value).toBe('Primitive value captured as exception: 42');
    expect(exceptionList(Object.create(null), generic)[0]!.value).toBe('Object captured as exception with keys: [object has no keys]');
    const hostile = new Proxy(new Error('x'), {
      get: () => {
        throw new Error('trap');
      },
    });
    expect(exceptionList(hostile, generic)[0]).toMatchObject({ type: 'Error', value: '' });
  });
});

describe('rate limit of autocapture', () => {
  it('lets 10 of a type through at once, then one per 10 s; other types have their own bucket', () => {
    const limiter = new BucketRateLimiter();
    const t0 = 1_000_000;
    const first = Array.from({ length: 12 }, () => limiter.take('TypeError', t0));
    expect(first.filter(Boolean)).toHaveLength(10);
    expect(limiter.take('RangeError', t0)).toBe(true);
    expect(limiter.take('TypeError', t0 + 9_999)).toBe(false);
    expect(limiter.take('TypeError', t0 + 10_000)).toBe(true);
    expect(limiter.take('TypeError', t0 + 10_001)).toBe(false);
    // After a long quiet spell the bucket is full again, not more than full.
    expect(Array.from({ length: 12 }, () => limiter.take('TypeError', t0 + 10_000_000)).filter(Boolean)).toHaveLength(10);
  });
});

/** A client whose errors are collected instead of logged. */
function client(options: ServiceOptions = {}) {
  const errors: Error[] = [];
  const c = new Service(service.token, { host: service.url, ...options });
  c.on('error', (e) => errors.push(e));
  return { c, errors };
}

/** Stored `$exception` events whose property `marker` is `marker`. */
async function exceptionsMarked(marker: string, count: number, query: { distinct_id?: string } = {}): Promise<StoredEvent[]> {
  const deadline = Date.now() + 10_000;
  for (;;) {
    const page = await service.events({ event: '$exception', ...query });
    const found = page.results.filter((e) => e.properties.marker === marker);
    if (found.length >= count || Date.now() > deadline) return found;
    await new Promise((r) => setTimeout(r, 100));
  }
}

describe('captureException against the service', () => {
  it('stores $exception_list (causes, frames with source context), $exception_level and the properties', async () => {
    const { c, errors } = client();
    c.captureException(await thrown(() => lib().failWithCause()), 'exc-user-1', { marker: 'cap-1', order_id: 7 });
    await c.flush();
    const [event] = await exceptionsMarked('cap-1', 1, { distinct_id: 'exc-user-1' });
    expect(event).toMatchObject({ event: '$exception', distinct_id: 'exc-user-1' });
    const p = event!.properties;
    expect(p).toMatchObject({ $exception_level: 'error', order_id: 7, $lib: 'service-node' });
    expect(p).not.toHaveProperty('$process_person_profile');
    const list = p.$exception_list as ExceptionEntry[];
    expect(list.map((e) => e.type)).toEqual(['Error', 'Error', 'TypeError']);
    const site = frames(list[0]).at(-1)!;
    expect(site).toMatchObject({
      platform: 'node:javascript',
      function: 'Object.failWithCause',
      abs_path: path.join(appDir, 'app/lib.cjs'),
      filename: path.relative(process.cwd(), path.join(appDir, 'app/lib.cjs')),
      context_line: "  throw new Error('order not saved', { cause: mid });",
      in_app: true,
    });
    expect(site.pre_context).toHaveLength(5);
    expect(errors).toEqual([]);
    await c.shutdown();
  });

  it('without a distinct id: a generated one, and $process_person_profile false (no person is made)', async () => {
    const { c } = client();
    c.captureException(new Error('anonymous failure'), undefined, { marker: 'cap-2' });
    await c.shutdown();
    const [event] = await exceptionsMarked('cap-2', 1);
    expect(event!.distinct_id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-/);
    expect(event!.properties.$process_person_profile).toBe(false);
  });

  it('a value that is not an Error gets the stack of the capture call (synthetic); bad input never throws', async () => {
    const error = vi.fn();
    const c = new Service(service.token, { host: service.url, logger: { warn: vi.fn(), error } });
    c.captureException('just a string', 'exc-user-3', { marker: 'cap-3' }); // the call site: this line
    const hostile = new Proxy(
      {},
      {
        get: () => {
          throw new Error('trap');
        },
        ownKeys: () => {
          throw new Error('trap');
        },
      },
    );
    expect(() => c.captureException(hostile, 'exc-user-3', { marker: 'cap-3' })).not.toThrow();
    const circular: Record<string, unknown> = { marker: 'cap-3' };
    circular.self = circular;
    expect(() => c.captureException(undefined, 'exc-user-3', circular)).not.toThrow();
    expect(() => c.captureException(new Error('x'), 'exc-user-3', null as never)).not.toThrow();
    await c.shutdown();
    const events = await exceptionsMarked('cap-3', 3, { distinct_id: 'exc-user-3' });
    const byValue = new Map(events.map((e) => [(e.properties.$exception_list as ExceptionEntry[])[0]!.value, e]));
    const stringEvent = (byValue.get('just a string')!.properties.$exception_list as ExceptionEntry[])[0]!;
    expect(stringEvent.mechanism).toMatchObject({ type: 'generic', handled: true, synthetic: true });
    expect(frames(stringEvent).at(-1)).toMatchObject({ abs_path: thisFile, in_app: true });
    expect(byValue.has('Primitive value captured as exception: undefined')).toBe(true);
    expect(error).not.toHaveBeenCalled();
  });
});

/** Runs `script` (ESM, with the client imported as `Service`) in a child process in the app folder. */
async function runChild(name: string, script: string, env: Record<string, string> = {}) {
  const file = path.join(appDir, name);
  const src = pathToFileURL(path.resolve(path.dirname(thisFile), '../src/index.ts')).href;
  fs.writeFileSync(file, `import { Service } from '${src}';\n${script}`);
  const child = spawn(process.execPath, ['--import', pathToFileURL(require.resolve('tsx')).href, file], {
    cwd: appDir,
    env: { ...serviceProcessEnv, SERVICE_HOST: service.url, SERVICE_TOKEN: service.token, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout.on('data', (d) => (output += d));
  child.stderr.on('data', (d) => (output += d));
  const code = await new Promise<number | null>((resolve) => child.on('exit', resolve));
  // With FORCE_COLOR in the environment, console.log colours numbers even into a pipe: compare the text.
  return { code, output: stripVTControlCharacters(output), file };
}

// eslint-disable-next-line no-restricted-syntax -- the child runs with this process's environment, as an app would
const serviceProcessEnv = process.env;

describe('exception autocapture (enableExceptionAutocapture) in a child process', () => {
  it('an uncaught exception is captured (onuncaughtexception, not handled), printed, sent, and the process exits 1', async () => {
    const { code, output, file } = await runChild(
      'crash.mjs',
      `const client = new Service(process.env.SERVICE_TOKEN, { host: process.env.SERVICE_HOST, enableExceptionAutocapture: true });
function explode() {
  throw new RangeError('child crash auto-1');
}
setTimeout(explode, 10);
setInterval(() => {}, 1000); // work that would keep it running
`,
    );
    expect(code).toBe(1);
    expect(output).toContain('child crash auto-1');
    const events = (await service.waitForEvents({ event: '$exception' }, 1)).results.filter(
      (e) => (e.properties.$exception_list as ExceptionEntry[])[0]!.value === 'child crash auto-1',
    );
    expect(events).toHaveLength(1);
    const [entry] = events[0]!.properties.$exception_list as ExceptionEntry[];
    expect(entry).toMatchObject({ type: 'RangeError', mechanism: { type: 'onuncaughtexception', handled: false, synthetic: false } });
    expect(frames(entry).at(-1)).toMatchObject({
      function: 'Timeout.explode [as _onTimeout]', // V8's name: a timer calls it as its _onTimeout
      filename: 'crash.mjs', // file:// URL read, relative to the child's working directory
      abs_path: file,
      lineno: 4,
      context_line: "  throw new RangeError('child crash auto-1');",
      in_app: true,
    });
    expect(events[0]!.properties.$process_person_profile).toBe(false);
  });

  it('an unhandled rejection is captured (onunhandledrejection) and the process exits 1, as Node would', async () => {
    const { code } = await runChild(
      'reject.mjs',
      `new Service(process.env.SERVICE_TOKEN, { host: process.env.SERVICE_HOST, enableExceptionAutocapture: true });
async function save() { await null; throw new Error('child rejection auto-2'); }
save();
setInterval(() => {}, 1000);
`,
    );
    expect(code).toBe(1);
    const event = await waitForException('child rejection auto-2');
    expect((event.properties.$exception_list as ExceptionEntry[])[0]).toMatchObject({
      type: 'Error',
      mechanism: { type: 'onunhandledrejection', handled: false },
    });
  });

  it('with the app listening to uncaughtException: captured, the app decides (no exit); its own captureException wins; a loop is rate-limited', async () => {
    const { code, output } = await runChild(
      'handled.mjs',
      `const client = new Service(process.env.SERVICE_TOKEN, { host: process.env.SERVICE_HOST, enableExceptionAutocapture: true });
let seen = 0;
process.on('uncaughtException', (error) => {
  seen++;
  if (error instanceof RangeError) client.captureException(error, 'app-user', { by: 'app' });
});
process.on('unhandledRejection', () => { seen++; });
for (let i = 0; i < 25; i++) setTimeout(() => { throw new TypeError('looping auto-3'); }, 1);
setTimeout(() => { throw new RangeError('handled by app auto-3'); }, 5);
setTimeout(() => Promise.reject(42), 5);
// Once all 27 were seen and autocapture has looked at the last (a turn on), everything is sent; at 5 s in any case.
const later = (turns, fn) => (turns === 0 ? fn() : setImmediate(() => later(turns - 1, fn)));
const finish = async () => {
  clearInterval(waiting);
  await client.shutdown();
  console.log('seen', seen);
};
const waiting = setInterval(() => seen >= 27 && (clearInterval(waiting), later(3, finish)), 10);
setTimeout(finish, 5000).unref();
`,
    );
    expect(output).toContain('seen 27');
    expect(code).toBe(0);
    await service.waitForEvents({ event: '$exception' }, 1);
    const all = (await service.events({ event: '$exception' })).results;
    const valued = (v: string) => all.filter((e) => (e.properties.$exception_list as ExceptionEntry[])[0]!.value === v);
    expect(valued('looping auto-3')).toHaveLength(10);
    const appCaptured = valued('handled by app auto-3');
    expect(appCaptured).toHaveLength(1);
    expect(appCaptured[0]).toMatchObject({ distinct_id: 'app-user', properties: { by: 'app' } });
    expect((appCaptured[0]!.properties.$exception_list as ExceptionEntry[])[0]!.mechanism).toMatchObject({ type: 'generic', handled: true });
    const rejection = valued('Primitive value captured as exception: 42');
    expect(rejection).toHaveLength(1);
    expect((rejection[0]!.properties.$exception_list as ExceptionEntry[])[0]!.mechanism).toMatchObject({
      type: 'onunhandledrejection',
      handled: false,
      synthetic: true,
    });
  });

  it("the app's own captureException wins however many turns after another exception it comes", async () => {
    // An autocaptured exception, then k turns later one the app captures itself: autocapture once forgot the app's
    // capture when the first one's memory was cleared in between (k = 2), and sent it a second time.
    const { code, output } = await runChild(
      'turns.mjs',
      `const client = new Service(process.env.SERVICE_TOKEN, { host: process.env.SERVICE_HOST, enableExceptionAutocapture: true });
const later = (turns, fn) => (turns === 0 ? fn() : setImmediate(() => later(turns - 1, fn)));
let byApp = 0;
process.on('uncaughtException', (error) => {
  if (!(error instanceof RangeError)) return;
  client.captureException(error, 'app-user', { by: 'app' });
  // Once autocapture has looked at the last one (a turn on), everything is sent.
  if (++byApp === 6) later(3, () => client.shutdown().then(() => console.log('done')));
});
for (let k = 0; k < 6; k++)
  setTimeout(() => {
    setImmediate(() => { throw new TypeError('first auto-5 ' + k); });
    later(k, () => setImmediate(() => { throw new RangeError('then by app auto-5 ' + k); }));
  }, 20 * k);
`,
    );
    expect(output).toContain('done');
    expect(code).toBe(0);
    const values = Array.from({ length: 6 }, (_, k) => `then by app auto-5 ${k}`);
    await waitForException(values[5]!);
    const all = (await service.events({ event: '$exception' })).results;
    for (const value of values) {
      const events = all.filter((e) => (e.properties.$exception_list as ExceptionEntry[])[0]!.value === value);
      expect(events, value).toHaveLength(1);
      expect(events[0]).toMatchObject({ distinct_id: 'app-user', properties: { by: 'app' } });
    }
    expect(all.filter((e) => (e.properties.$exception_list as ExceptionEntry[])[0]!.value.startsWith('first auto-5'))).toHaveLength(6);
  });
});

async function waitForException(value: string): Promise<StoredEvent> {
  const deadline = Date.now() + 10_000;
  for (;;) {
    const found = (await service.events({ event: '$exception' })).results.find((e) => (e.properties.$exception_list as ExceptionEntry[])[0]!.value === value);
    if (found || Date.now() > deadline) return found!;
    await new Promise((r) => setTimeout(r, 100));
  }
}

interface Issue {
  id: string;
  name: string;
  description: string;
  status: string;
  occurrences: number;
  people: number;
  fingerprints: string[];
}

describe('error tracking issues from service-node', () => {
  it('two captures of the same error land in one issue (2 occurrences, 2 people); another error in another issue', async () => {
    const { c, errors } = client();
    for (const total of [-5, -7]) c.captureException(await thrown(() => lib().parseOrder({ total })), `grouped-${total}`);
    c.captureException(await thrown(() => lib().failWithCause()), 'grouped-other');
    await c.shutdown();
    expect(errors).toEqual([]);
    const issues = await service.api<{ count: number; results: Issue[] }>('GET', `/api/projects/${service.projectId}/error_tracking/issues/?limit=100`);
    const negative = issues.results.filter((i) => i.description.startsWith('negative total'));
    expect(negative).toHaveLength(1);
    expect(negative[0]).toMatchObject({ name: 'RangeError', status: 'active', occurrences: 2, people: 2 });
    const other = issues.results.filter((i) => i.description === 'order not saved');
    expect(other).toHaveLength(1);
    expect(other[0]!.id).not.toBe(negative[0]!.id);
    // The issue's latest stack is service-node's, source lines included.
    const detail = await service.api<{ latest_event: { properties: Record<string, unknown> } }>(
      'GET',
      `/api/projects/${service.projectId}/error_tracking/issues/${negative[0]!.id}/`,
    );
    const site = frames((detail.latest_event.properties.$exception_list as ExceptionEntry[])[0]).at(-1)!;
    expect(site).toMatchObject({ function: '?', lineno: throwLine, context_line: libLines[throwLine - 1], in_app: true });
  });
});
