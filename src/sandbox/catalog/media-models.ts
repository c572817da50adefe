/**
 * Video, audio and embedding models. Spec 2 §4.4 leaves these catalogs' shapes open, so each item
 * carries the fields a client needs to choose a model: kind, limits and prices.
 */
export interface VideoModel {
  id: string;
  name: string;
  owned_by: string;
  description: string;
  modes: string[];
  durations: string[];
  aspect_ratios: string[];
  resolutions: string[];
  supports_audio: boolean;
  pro_required: boolean;
  /** USD per second of video, by resolution. */
  price_per_second: Record<string, number>;
}

export const VIDEO_MODELS: readonly VideoModel[] = [
  {
    id: 'sandbox/video-lite',
    name: 'Sandbox Video Lite',
    owned_by: 'sandbox',
    description: 'Short clips from text or an image.',
    modes: ['text-to-video', 'image-to-video'],
    durations: ['5', '10'],
    aspect_ratios: ['16:9', '9:16', '1:1'],
    resolutions: ['480p', '720p'],
    supports_audio: false,
    pro_required: false,
    price_per_second: { '480p': 0.03, '720p': 0.05 },
  },
  {
    id: 'sandbox/video-pro',
    name: 'Sandbox Video Pro',
    owned_by: 'sandbox',
    description: 'Higher resolution clips with optional generated audio; extendable.',
    modes: ['text-to-video', 'image-to-video', 'reference-to-video', 'video-edit'],
    durations: ['5', '8', '10'],
    aspect_ratios: ['16:9', '9:16', '1:1', '4:3', '3:4'],
    resolutions: ['720p', '1080p'],
    supports_audio: true,
    pro_required: false,
    price_per_second: { '720p': 0.1, '1080p': 0.15 },
  },
];

type AudioKind = 'tts' | 'music' | 'transcription';

export interface AudioModel {
  id: string;
  name: string;
  owned_by: string;
  description: string;
  type: AudioKind;
  /** Replies with a ticket to poll instead of the result. */
  async: boolean;
  voices?: string[];
  formats?: string[];
  max_characters?: number;
  diarization?: boolean;
  pricing: { unit: 'per_1k_characters' | 'per_request' | 'per_minute'; usd: number };
}

export const AUDIO_MODELS: readonly AudioModel[] = [
  {
    id: 'tts-mini',
    name: 'TTS Mini',
    owned_by: 'sandbox',
    description: 'Fast text-to-speech; replies with audio bytes.',
    type: 'tts',
    async: false,
    voices: ['alloy', 'ember', 'sage'],
    formats: ['mp3', 'wav'],
    max_characters: 4096,
    pricing: { unit: 'per_1k_characters', usd: 0.015 },
  },
  {
    id: 'tts-studio',
    name: 'TTS Studio',
    owned_by: 'sandbox',
    description: 'Premium voices with stability and style controls; runs asynchronously.',
    type: 'tts',
    async: true,
    voices: ['narrator', 'host'],
    formats: ['mp3', 'wav', 'opus', 'flac'],
    max_characters: 10_000,
    pricing: { unit: 'per_1k_characters', usd: 0.1 },
  },
  {
    id: 'music-lite',
    name: 'Music Lite',
    owned_by: 'sandbox',
    description: 'Short instrumental music from a prompt.',
    type: 'music',
    async: false,
    formats: ['mp3'],
    pricing: { unit: 'per_request', usd: 0.02 },
  },
  {
    id: 'whisper-sandbox',
    name: 'Whisper Sandbox',
    owned_by: 'sandbox',
    description: 'Synchronous transcription.',
    type: 'transcription',
    async: false,
    diarization: false,
    pricing: { unit: 'per_minute', usd: 0.006 },
  },
  {
    id: 'scribe-async',
    name: 'Scribe Async',
    owned_by: 'sandbox',
    description: 'Asynchronous transcription with diarization and word timings.',
    type: 'transcription',
    async: true,
    diarization: true,
    pricing: { unit: 'per_minute', usd: 0.01 },
  },
];

export interface EmbeddingModel {
  id: string;
  name: string;
  owned_by: string;
  dimensions: number;
  /** Accepts `dimensions` to shorten vectors. */
  supports_dimensions: boolean;
  max_input_tokens: number;
  /** USD per million input tokens. */
  price_per_million: number;
}

export const EMBEDDING_MODELS: readonly EmbeddingModel[] = [
  {
    id: 'text-embedding-3-small',
    name: 'Text Embedding 3 Small',
    owned_by: 'openai',
    dimensions: 1536,
    supports_dimensions: true,
    max_input_tokens: 8191,
    price_per_million: 0.02,
  },
  {
    id: 'text-embedding-3-large',
    name: 'Text Embedding 3 Large',
    owned_by: 'openai',
    dimensions: 3072,
    supports_dimensions: true,
    max_input_tokens: 8191,
    price_per_million: 0.13,
  },
  {
    id: 'sandbox/embed-lite',
    name: 'Sandbox Embed Lite',
    owned_by: 'sandbox',
    dimensions: 384,
    supports_dimensions: false,
    max_input_tokens: 512,
    price_per_million: 0.01,
  },
];
