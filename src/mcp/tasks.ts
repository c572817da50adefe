import type { CreateTaskOptions, TaskStore } from '@modelcontextprotocol/sdk/experimental/tasks';
import type { Request, RequestId, Result, Task } from '@modelcontextprotocol/sdk/types.js';

/**
 * MCP tasks (the SDK's experimental tasks API) for long tools: the client asks for a task, gets a
 * task id at once, and reads the result with `tasks/result` when the job is done. This store
 * also owns each task's cancellation: `tasks/cancel` aborts the work, which aborts the request in
 * flight and stops polling, exactly as cancelling a plain call does.
 */

const DEFAULT_TTL_MS = 60 * 60_000;
const MAX_TTL_MS = 24 * 60 * 60_000;
const POLL_INTERVAL_MS = 1_000;
const TERMINAL = new Set<Task['status']>(['completed', 'failed', 'cancelled']);

interface Entry {
  task: Task;
  sessionId?: string;
  result?: Result;
  controller: AbortController;
  timer?: NodeJS.Timeout;
}

export class ToolTaskStore implements TaskStore {
  private readonly tasks = new Map<string, Entry>();
  private counter = 0;

  async createTask(
    params: CreateTaskOptions,
    _requestId: RequestId,
    _request: Request,
    sessionId?: string,
  ): Promise<Task> {
    this.counter += 1;
    const taskId = `task_${Date.now().toString(36)}_${this.counter}_${Math.random().toString(36).slice(2, 8)}`;
    const ttl = Math.min(params.ttl ?? DEFAULT_TTL_MS, MAX_TTL_MS);
    const stamp = new Date().toISOString();
    const task: Task = {
      taskId,
      status: 'working',
      ttl,
      createdAt: stamp,
      lastUpdatedAt: stamp,
      pollInterval: params.pollInterval ?? POLL_INTERVAL_MS,
    };
    const entry: Entry = { task, sessionId, controller: new AbortController() };
    this.tasks.set(taskId, entry);
    this.expire(entry);
    return { ...task };
  }

  /** Aborted when the task is cancelled or the server closes. */
  signal(taskId: string): AbortSignal {
    return this.tasks.get(taskId)?.controller.signal ?? AbortSignal.abort();
  }

  async getTask(taskId: string, sessionId?: string): Promise<Task | null> {
    const entry = this.lookup(taskId, sessionId);
    return entry ? { ...entry.task } : null;
  }

  async storeTaskResult(taskId: string, status: 'completed' | 'failed', result: Result, sessionId?: string) {
    const entry = this.mustGet(taskId, sessionId);
    if (TERMINAL.has(entry.task.status)) throw new Error(`Task ${taskId} is already ${entry.task.status}.`);
    entry.result = result;
    this.setStatus(entry, status);
  }

  async getTaskResult(taskId: string, sessionId?: string): Promise<Result> {
    const entry = this.mustGet(taskId, sessionId);
    if (entry.result) return entry.result;
    if (entry.task.status === 'cancelled') {
      return {
        content: [{ type: 'text', text: 'The task was cancelled; the job itself may still run.' }],
        isError: true,
      };
    }
    throw new Error(`Task ${taskId} has no result yet.`);
  }

  async updateTaskStatus(taskId: string, status: Task['status'], statusMessage?: string, sessionId?: string) {
    const entry = this.mustGet(taskId, sessionId);
    if (TERMINAL.has(entry.task.status)) throw new Error(`Task ${taskId} is already ${entry.task.status}.`);
    if (statusMessage) entry.task.statusMessage = statusMessage;
    this.setStatus(entry, status);
    if (status === 'cancelled') entry.controller.abort();
  }

  async listTasks(cursor?: string, sessionId?: string): Promise<{ tasks: Task[]; nextCursor?: string }> {
    const ids = [...this.tasks.keys()].filter((id) => this.lookup(id, sessionId));
    const start = cursor ? ids.indexOf(cursor) + 1 : 0;
    const page = ids.slice(start, start + 20);
    const tasks = page.map((id) => ({ ...this.tasks.get(id)!.task }));
    return { tasks, ...(start + 20 < ids.length ? { nextCursor: page.at(-1) } : {}) };
  }

  /** Stops every running task (the server is closing). */
  close(): void {
    for (const entry of this.tasks.values()) {
      entry.controller.abort();
      clearTimeout(entry.timer);
    }
    this.tasks.clear();
  }

  private setStatus(entry: Entry, status: Task['status']) {
    entry.task.status = status;
    entry.task.lastUpdatedAt = new Date().toISOString();
    if (TERMINAL.has(status)) this.expire(entry);
  }

  /** Forgets the task `ttl` ms from now; the timer never holds the process open. */
  private expire(entry: Entry) {
    clearTimeout(entry.timer);
    if (!entry.task.ttl) return;
    entry.timer = setTimeout(() => {
      entry.controller.abort();
      this.tasks.delete(entry.task.taskId);
    }, entry.task.ttl);
    entry.timer.unref();
  }

  private lookup(taskId: string, sessionId?: string): Entry | undefined {
    const entry = this.tasks.get(taskId);
    if (entry && sessionId !== undefined && entry.sessionId !== undefined && entry.sessionId !== sessionId)
      return undefined;
    return entry;
  }

  private mustGet(taskId: string, sessionId?: string): Entry {
    const entry = this.lookup(taskId, sessionId);
    if (!entry) throw new Error(`Task ${taskId} not found.`);
    return entry;
  }
}
