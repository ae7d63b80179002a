// How the server's log lines read. Machines get JSON, one object a line (what
// log collectors parse); a person at a terminal gets pino-pretty's human lines
// — time, level, message, the few fields that matter — with each request's
// own line at debug, so the screen stays calm until something happens.
import type { Writable } from 'node:stream';
import type { WriteStream } from 'node:tty';
import type { LogFormat } from './config.js';

export interface LogOutput {
  format: LogFormat;
  stream: Writable;
}

/** Fields a human line leaves out: the same on every line, or only for correlating machine logs. */
const PLAIN_FIELDS = 'pid,hostname,reqId';

/** The format `configured` names, else pretty on a terminal and JSON elsewhere; pino-pretty is loaded only when used. */
export async function logOutput(configured: LogFormat | null, stream: Writable): Promise<LogOutput> {
  const terminal = (stream as Partial<WriteStream>).isTTY === true;
  const format = configured ?? (terminal ? 'pretty' : 'json');
  if (format === 'json') return { format, stream };
  const { default: pretty } = await import('pino-pretty');
  return {
    format,
    stream: pretty({
      destination: stream,
      sync: true,
      // Node's own answer: the terminal's depth, NO_COLOR and FORCE_COLOR.
      colorize: terminal && (stream as WriteStream).hasColors(),
      translateTime: 'SYS:HH:MM:ss',
      ignore: PLAIN_FIELDS,
      singleLine: true,
    }),
  };
}
