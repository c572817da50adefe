import type { VideoModel } from '../catalog/media-models.js';
import type { KeyRecord } from '../state.js';
import { roundUsd } from '../util.js';
import type { Phase } from './jobs.js';

/** A video job and the reply shapes of its routes (spec 2 §2.4; GAPS.md "Video jobs": both status shapes). */
export interface VideoJob {
  id: string;
  key: KeyRecord;
  model: VideoModel;
  prompt: string;
  seconds: number;
  resolution: string;
  aspectRatio: string;
  cost: number;
  createdAt: number;
  /** The generation conversation the run belongs to: the one the submit named, else a new one. */
  conversationUUID: string;
  status?: 'COMPLETED' | 'FAILED';
  completedAt?: number;
  videoUrl?: string;
  error?: string;
  extendedFrom?: string;
}

export function acceptedReply(job: VideoJob, key: KeyRecord) {
  return {
    runId: job.id,
    id: job.id,
    status: 'pending',
    model: job.model.id,
    cost: job.cost,
    paymentSource: 'USD',
    remainingBalance: roundUsd(key.account.balanceNanos / 1e9),
    prechargeLabel: `${job.seconds}s at ${job.resolution}`,
  };
}

export function nestedReply(job: VideoJob, phase: Phase) {
  const status = job.status ?? (phase.state === 'queued' ? 'IN_QUEUE' : 'IN_PROGRESS');
  return {
    requestId: job.id,
    model: job.model.id,
    data: {
      status,
      requestId: job.id,
      ...(phase.state === 'queued' && !job.status ? { queuePosition: phase.position } : {}),
      ...(job.videoUrl ? { output: { video: { url: job.videoUrl } } } : {}),
      cost: job.status === 'FAILED' ? 0 : job.cost,
      error: job.error ?? null,
      isNSFWError: false,
      userFriendlyError: job.error ?? null,
    },
  };
}

export function flatReply(job: VideoJob, phase: Phase) {
  const status =
    job.status === 'COMPLETED'
      ? 'completed'
      : job.status === 'FAILED'
        ? 'failed'
        : phase.state === 'queued'
          ? 'queued'
          : 'processing';
  return {
    requestId: job.id,
    status,
    progress: job.status ? 100 : phase.state === 'running' ? phase.percent : 0,
    estimatedTimeRemaining: phase.state === 'done' ? 0 : Math.ceil(phase.remainingMs / 1000),
    videoUrl: job.videoUrl ?? null,
    error: job.error ?? null,
    createdAt: new Date(job.createdAt).toISOString(),
    completedAt: job.completedAt ? new Date(job.completedAt).toISOString() : null,
  };
}
