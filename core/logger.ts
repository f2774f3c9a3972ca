const levels = { debug: 10, info: 20, warn: 30, error: 40, silent: 100 } as const;
export type LogLevel = keyof typeof levels;

export interface Logger {
  debug(msg: string, fields?: Record<string, unknown>): void;
  info(msg: string, fields?: Record<string, unknown>): void;
  warn(msg: string, fields?: Record<string, unknown>): void;
  error(msg: string, fields?: Record<string, unknown>): void;
  child(fields: Record<string, unknown>): Logger;
}

/** One line per record on stderr: readable in a terminal, greppable in a log collector. */
export function createLogger(level: LogLevel = 'info', base: Record<string, unknown> = {}): Logger {
  const min = levels[level];
  const write = (lvl: Exclude<LogLevel, 'silent'>, msg: string, fields?: Record<string, unknown>) => {
    if (levels[lvl] < min) return;
    const extra = { ...base, ...fields };
    const tail = Object.keys(extra).length ? ' ' + JSON.stringify(extra) : '';
    process.stderr.write(`${new Date().toISOString()} ${lvl.toUpperCase()} ${msg}${tail}\n`);
  };
  return {
    debug: (m, f) => write('debug', m, f),
    info: (m, f) => write('info', m, f),
    warn: (m, f) => write('warn', m, f),
    error: (m, f) => write('error', m, f),
    child: (fields) => createLogger(level, { ...base, ...fields }),
  };
}
