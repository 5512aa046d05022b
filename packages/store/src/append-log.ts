import { open, readFile, rename, truncate, unlink, type FileHandle } from 'node:fs/promises';
import { dirname } from 'node:path';

/**
 * An append-only file of lines with group commit: every line handed to `append` in the same turn of the event
 * loop (and any arriving while a flush runs) is written and fsynced in one go, and each promise resolves only
 * once its line is on disk. `requestRewrite` atomically replaces the whole file (temp file, fsync, rename, fsync the
 * directory) in the same queue, so it never interleaves with an append. After a failed write or fsync the log
 * refuses everything (the caller's memory may be ahead of the disk): reopen to recover from the file.
 */
export class AppendLog {
  /** Bytes currently in the file. */
  get size(): number {
    return this.bytes;
  }

  private queue: Array<{ data: Buffer; resolve: () => void; reject: (error: Error) => void }> = [];
  private rewriteRequest: (() => Iterable<string>) | null = null;
  private running = false;
  private scheduled = false;
  private failure: Error | null = null;
  private closed = false;
  private idle: Array<() => void> = [];
  /** After a failed rewrite (disk full?), the next one waits until the file has doubled. */
  private rewriteBlockedBelow = 0;

  private constructor(
    private readonly path: string,
    private handle: FileHandle,
    private bytes: number,
    private readonly fsync: boolean,
    private readonly afterFlush: (log: AppendLog) => void,
  ) {}

  /**
   * Opens the file at `path`, creating it if needed. `inspect` reads the current contents first and returns how
   * many bytes of it are valid: the file is cut there (a torn tail left by a crash) before appending resumes.
   */
  static async open(
    path: string,
    options: {
      fsync: boolean;
      inspect: (contents: Buffer) => number;
      /** Runs whenever a flush has emptied the queue (a chance to `requestRewrite`). */
      afterFlush?: (log: AppendLog) => void;
    },
  ): Promise<AppendLog> {
    let contents: Buffer;
    try {
      contents = await readFile(path);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
      contents = Buffer.alloc(0);
    }
    const validBytes = options.inspect(contents);
    if (validBytes < contents.length) await truncate(path, validBytes);
    const handle = await open(path, 'a');
    try {
      if (options.fsync) {
        await handle.sync();
        await syncDirectory(dirname(path));
      }
    } catch (error) {
      await handle.close();
      throw error;
    }
    return new AppendLog(path, handle, validBytes, options.fsync, options.afterFlush ?? (() => {}));
  }

  /** Resolves once the line is durable (fsynced when `fsync` is on); rejects if the log failed or closed. */
  append(line: string): Promise<void> {
    const refused = this.refusal();
    if (refused) return Promise.reject(refused);
    return new Promise((resolve, reject) => {
      this.queue.push({ data: Buffer.from(`${line}\n`, 'utf8'), resolve, reject });
      this.schedule();
    });
  }

  /**
   * Replaces the file with `snapshot()`'s lines once every queued append is written. `snapshot` runs when the
   * queue is empty, so it must describe exactly the state those appends produced.
   */
  requestRewrite(snapshot: () => Iterable<string>): void {
    if (this.refusal() || this.bytes < this.rewriteBlockedBelow) return;
    this.rewriteRequest = snapshot;
    this.schedule();
  }

  /** Resolves when nothing is queued or being written. */
  async settle(): Promise<void> {
    if (!this.running && !this.scheduled) return;
    await new Promise<void>((resolve) => this.idle.push(resolve));
  }

  /** Null while healthy, else the reason the log refuses work. */
  get error(): Error | null {
    return this.failure ?? (this.closed ? new Error('log closed') : null);
  }

  async close(): Promise<void> {
    if (this.closed) return;
    await this.settle();
    this.closed = true;
    await this.handle.close();
  }

  private refusal(): Error | null {
    if (this.failure) return this.failure;
    if (this.closed) return new Error('log closed');
    return null;
  }

  private schedule(): void {
    if (this.scheduled || this.running) return;
    this.scheduled = true;
    setImmediate(() => {
      this.scheduled = false;
      void this.run();
    });
  }

  private async run(): Promise<void> {
    this.running = true;
    try {
      while (!this.failure && (this.queue.length > 0 || this.rewriteRequest)) {
        if (this.queue.length > 0) {
          await this.flush(this.queue.splice(0));
          if (this.queue.length === 0) this.afterFlush(this);
        } else {
          const snapshot = this.rewriteRequest!;
          this.rewriteRequest = null;
          await this.rewrite(snapshot);
        }
      }
    } finally {
      this.running = false;
      if (!this.failure && (this.queue.length > 0 || this.rewriteRequest)) this.schedule();
      else for (const resolve of this.idle.splice(0)) resolve();
    }
  }

  private async flush(batch: Array<{ data: Buffer; resolve: () => void; reject: (error: Error) => void }>) {
    const data = Buffer.concat(batch.map((item) => item.data));
    try {
      await writeAll(this.handle, data);
      if (this.fsync) await this.handle.datasync();
      this.bytes += data.length;
    } catch (error) {
      this.failure = new Error(`Embedded store log write failed: ${(error as Error).message}`, {
        cause: error,
      });
      for (const item of [...batch, ...this.queue.splice(0)]) item.reject(this.failure);
      return;
    }
    for (const item of batch) item.resolve();
  }

  private async rewrite(snapshot: () => Iterable<string>): Promise<void> {
    const temporary = `${this.path}.compact`;
    let data: Buffer;
    try {
      data = Buffer.from([...snapshot()].map((line) => `${line}\n`).join(''), 'utf8');
      const handle = await open(temporary, 'w');
      try {
        await writeAll(handle, data);
        await handle.sync();
      } finally {
        await handle.close();
      }
      await rename(temporary, this.path);
    } catch {
      await unlink(temporary).catch(() => {});
      this.rewriteBlockedBelow = this.bytes * 2;
      return; // the old file is intact and still open: carry on with it
    }
    try {
      if (this.fsync) await syncDirectory(dirname(this.path));
      const previous = this.handle;
      this.handle = await open(this.path, 'a');
      this.bytes = data.length;
      await previous.close();
    } catch (error) {
      this.failure = new Error(`Embedded store log reopen failed: ${(error as Error).message}`, {
        cause: error,
      });
    }
  }
}

async function writeAll(handle: FileHandle, data: Buffer): Promise<void> {
  let offset = 0;
  while (offset < data.length) {
    const { bytesWritten } = await handle.write(data, offset, data.length - offset);
    offset += bytesWritten;
  }
}

/** Makes a file's creation or rename durable. */
async function syncDirectory(directory: string): Promise<void> {
  const handle = await open(directory, 'r');
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}
