/**
 * The progress line on stderr (stdout stays clean for the tables). On a terminal one line is
 * rewritten in place; in a log (CI, a pipe) a line is printed at most every few seconds, so a long
 * run shows it is alive without flooding the log.
 */

const LOG_INTERVAL_MS = 5000;

export interface Progress {
  /** The current step, e.g. "default · conv-26 · question 120/199". */
  update(text: string): void;
  /** A line that stays (a step finished). */
  note(text: string): void;
  /** Ends the progress line. */
  done(): void;
}

export function createProgress(label: string, stream: NodeJS.WriteStream = process.stderr): Progress {
  const started = performance.now();
  const tty = stream.isTTY === true;
  let lastLog = -Infinity;
  let shown = false;
  const stamp = (): string => `${((performance.now() - started) / 1000).toFixed(0).padStart(4)}s`;
  const clear = (): void => {
    if (tty && shown) stream.write("\r\x1b[2K");
    shown = false;
  };
  return {
    update(text) {
      const line = `[${label} ${stamp()}] ${text}`;
      if (tty) {
        const width = stream.columns ?? 120;
        stream.write(`\r\x1b[2K${[...line].slice(0, Math.max(20, width - 1)).join("")}`);
        shown = true;
      } else if (performance.now() - lastLog >= LOG_INTERVAL_MS) {
        lastLog = performance.now();
        stream.write(`${line}\n`);
      }
    },
    note(text) {
      clear();
      stream.write(`[${label} ${stamp()}] ${text}\n`);
    },
    done() {
      clear();
    },
  };
}
