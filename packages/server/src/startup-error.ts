import { InvalidArgumentError } from 'commander';
import { ConfigError, type Config } from './config';
import { databaseLocation, sqliteFile } from './db/database';

interface SystemError {
  code?: unknown;
  syscall?: unknown;
  message?: unknown;
}

/** Why the data folder cannot be made, by Node's error code. */
const folderProblems: Record<string, string> = {
  EEXIST: 'a file of that name is in the way',
  ENOTDIR: 'a file is in its path',
  EACCES: 'permission denied',
  EPERM: 'permission denied',
  EROFS: 'the file system is read-only',
  ENOSPC: 'the disk is full',
};

/** Node's codes for a PostgreSQL server that does not answer at all. */
const noAnswer = new Set(['ETIMEDOUT', 'EHOSTUNREACH', 'ENETUNREACH']);

/**
 * The plain sentence, with its fix, for an error that stops the command line before it can do its work: bad
 * configuration or argument, a port in use, a data folder it cannot write, a database it cannot reach or log in to.
 * Undefined for any other error (a bug, reported with its stack trace). `config` is undefined when it did not load.
 */
export function startupError(error: unknown, config: Config | undefined): string | undefined {
  if (error instanceof ConfigError) return `${error.message}; fix it, or unset it for the default.`;
  if (error instanceof InvalidArgumentError) return error.message;
  if (!config) return undefined;
  const e = (error ?? {}) as SystemError;
  const first = (error instanceof AggregateError ? error.errors[0] : error) as SystemError | undefined;
  const code = typeof e.code === 'string' ? e.code : typeof first?.code === 'string' ? first.code : '';
  const message = typeof e.message === 'string' && e.message ? e.message : String(first?.message ?? '');

  if (e.syscall === 'listen' || code === 'ERR_SOCKET_BAD_PORT') return listenError(code, config);
  if (!config.databaseUrl) return sqliteError(code, message, config);
  return postgresError(code, message, config);
}

function listenError(code: string, { host, port }: Config): string | undefined {
  switch (code) {
    case 'EADDRINUSE':
      return `port ${port} on ${host} is already in use (is the service already running?); stop what uses it, or choose another port, e.g. PORT=${port + 1}.`;
    case 'EACCES':
      return `no permission to listen on port ${port}; choose a port above 1023, e.g. PORT=8000.`;
    case 'EADDRNOTAVAIL':
      return `cannot listen on ${host}: this machine has no such address; set HOST to 127.0.0.1 (this machine only) or 0.0.0.0 (every interface).`;
    case 'ENOTFOUND':
    case 'EAI_AGAIN':
      return `cannot listen on ${host}: the host name does not resolve; set HOST to 127.0.0.1 (this machine only) or 0.0.0.0 (every interface).`;
    case 'ERR_SOCKET_BAD_PORT':
      return `PORT must be at most 65535, got ${port}; fix it, or unset it for the default (8000).`;
  }
  return undefined;
}

function sqliteError(code: string, message: string, { dataDir }: Config): string | undefined {
  const file = sqliteFile(dataDir);
  const elsewhere = 'set DATA_DIR to a folder you can write, e.g. DATA_DIR=./.service-data';
  if (folderProblems[code]) return `cannot create the database in DATA_DIR=${dataDir}: ${folderProblems[code]}; ${elsewhere}.`;
  if (code === 'SQLITE_NOTADB') return `${file} is not a SQLite database; move it away, or ${elsewhere}.`;
  if (code.startsWith('SQLITE_CORRUPT')) return `${file} is a damaged SQLite database (${message}); restore it from a backup, or ${elsewhere}.`;
  if (code.startsWith('SQLITE_BUSY') || code.startsWith('SQLITE_LOCKED')) {
    return `${file} is locked by another process; stop that process, or ${elsewhere}.`;
  }
  if (code === 'SQLITE_FULL') return `the disk holding ${file} is full; free some space, or ${elsewhere}.`;
  if (/^SQLITE_(CANTOPEN|READONLY|PERM|IOERR)/.test(code)) return `cannot write ${file} (${message}); fix the permissions of ${dataDir}, or ${elsewhere}.`;
  return undefined;
}

function postgresError(code: string, message: string, config: Config): string | undefined {
  const where = databaseLocation(config);
  if (code === 'ECONNREFUSED') return `cannot connect to ${where}: connection refused; start PostgreSQL there, or fix DATABASE_URL.`;
  if (code === 'ENOTFOUND' || code === 'EAI_AGAIN') return `cannot connect to ${where}: the host name does not resolve; fix the host in DATABASE_URL.`;
  if (noAnswer.has(code) || /timeout exceeded when trying to connect/.test(message)) {
    return `cannot connect to ${where}: no answer within ${config.databaseTimeoutMs} ms; check that PostgreSQL runs and is reachable from here, or fix DATABASE_URL.`;
  }
  if (code === 'ECONNRESET' || /^Connection terminated/.test(message)) {
    return `${where} closed the connection at once; check that it is PostgreSQL and accepts this connection (sslmode?), or fix DATABASE_URL.`;
  }
  if (code === '3D000') {
    const name = /database "(.*)" does not exist/.exec(message)?.[1] ?? 'DATABASE';
    return `${where}: ${message}; create it (createdb ${name}), or fix DATABASE_URL.`;
  }
  if (code === '28P01' || code === '28000') return `${where} refused the login: ${message}; fix the user or password in DATABASE_URL.`;
  if (code === '42501') return `${where}: ${message}; give the user the right to create tables (and the schema), or use another user in DATABASE_URL.`;
  if (code === '57P03') return `${where} is starting up or shutting down; retry in a moment.`;
  if (code === '53300') return `${where} has too many connections; retry later, or raise its max_connections.`;
  if (code.startsWith('08')) return `cannot connect to ${where}: ${message}; check that PostgreSQL accepts connections, or fix DATABASE_URL.`;
  return undefined;
}
