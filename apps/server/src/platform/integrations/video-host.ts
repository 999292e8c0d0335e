import { z } from 'zod';
import { assertValidKey } from '../storage';

/**
 * The video host (spec 002 §7): an upload token for a video's name and path, removal by
 * videoId, a link by videoId. Videos are sent resumably with the spec's retry delays. A
 * document that is a video keeps the host's videoId and link as its placeholder metadata
 * (spec 002 §3). No method throws: a failure is logged and answers null (or false).
 */
export type VideoUploadTicket = {
  /** The host's id of the video the bytes become. */
  videoId: string;
  /** The resumable (tus) endpoint the client sends the bytes to. */
  endpoint: string;
  /** Upload-Metadata of the tus creation request. */
  metadata: Record<string, string>;
  /** Headers every tus request carries (none for the hosts here: the token is metadata). */
  headers: Record<string, string>;
  /** Spec 002 §7: 0, 3, 5, 10 and 20 s between attempts, in milliseconds (tus-js-client's unit). */
  retryDelays: readonly number[];
};

export type VideoHost = {
  /**
   * `local`: videos stay in our storage, where our resumable uploads put them, and play from
   * our own range-capable file address. `http`: an outside host (gcore-style).
   */
  kind: 'local' | 'http';
  /** What a client needs to send a video's bytes; null when the host refused or failed. */
  uploadToken(input: { name: string; path: string }): Promise<VideoUploadTicket | null>;
  /** Removes a video; false when the host failed (logged; the caller goes on, spec 002 §8). */
  remove(videoId: string): Promise<boolean>;
  /** The address the video plays or downloads from; null when unknown or failed. */
  downloadLink(videoId: string): Promise<string | null>;
};

/** What a host failure looks like in the logs (the app's logger, as a warning). */
export type VideoHostLog = (details: Record<string, unknown>, message: string) => void;

/** Spec 002 §7: retry delays 0, 3, 5, 10, 20 seconds. */
export const videoUploadRetryDelays: readonly number[] = Object.freeze(
  [0, 3, 5, 10, 20].map((seconds) => seconds * 1000),
);

/** Our resumable upload endpoint (tus, modules/uploads). */
export const localUploadEndpoint = '/api/uploads';

/**
 * Works with no network. A video's bytes go through our resumable uploads into our storage
 * (the record's upload purpose stores them under `path`, a key the server builds): the
 * videoId is that stored object's key, and its link is our own file address
 * (GET /api/files/<key>, streamed with Range requests, readable by the back-office and by the
 * store's tablets under the files' access rules). The ticket names our tus endpoint; the
 * caller adds the purpose and owner metadata of the record the video belongs to. A stored
 * object is removed with the record holding it (its storage deletion queue), so `remove`
 * has nothing left to do.
 */
export function createLocalVideoHost(): VideoHost {
  const isKey = (value: string) => {
    try {
      assertValidKey(value);
      return true;
    } catch {
      return false;
    }
  };
  return {
    kind: 'local',
    async uploadToken({ name, path }) {
      if (!isKey(path)) return null;
      return {
        videoId: path,
        endpoint: localUploadEndpoint,
        metadata: { filename: name },
        headers: {},
        retryDelays: videoUploadRetryDelays,
      };
    },
    remove: async (videoId) => isKey(videoId),
    downloadLink: async (videoId) => (isKey(videoId) ? `/api/files/${videoId}` : null),
  };
}

/** Gcore's TUS session parameters, as the upload-token call answers them. */
const uploadTokenAnswerSchema = z.object({
  token: z.string().min(1),
  servers: z.array(z.object({ hostname: z.string().regex(/^[A-Za-z0-9.-]+(:\d{1,5})?$/) })).min(1),
  video: z.object({
    id: z.union([z.number().int(), z.string().min(1)]),
    client_id: z.union([z.number().int(), z.string().min(1)]),
  }),
});

const downloadLinkAnswerSchema = z.object({ link: z.url({ protocol: /^https?$/ }) });

const requestTimeoutMs = 10_000;

/**
 * A gcore-style video host behind VIDEO_HOST_URL, authenticated with `Authorization: APIKey
 * <VIDEO_HOST_API_KEY>`. The calls (spec 002 §7; the paths are an assumption, docs/decisions.md):
 * - GET `/upload-token?name&path` answers Gcore's TUS parameters
 *   `{ token, servers: [{ hostname }], video: { id, client_id } }`; the bytes then go to
 *   `https://<hostname>/upload/` with metadata filename, token, video_id and client_id;
 * - DELETE `/videos/<videoId>` (a video already gone counts as removed);
 * - GET `/videos/<videoId>/download-link` answers `{ link }` (an http(s) address).
 */
export function createHttpVideoHost(options: {
  baseUrl: string;
  apiKey: string;
  fetchImpl?: typeof fetch;
  log?: VideoHostLog;
}): VideoHost {
  const baseUrl = options.baseUrl.replace(/\/+$/, '');
  const fetchImpl = options.fetchImpl ?? fetch;
  const log = options.log ?? (() => {});
  const call = async (
    method: 'GET' | 'DELETE',
    path: string,
  ): Promise<{ status: number; body: unknown } | null> => {
    try {
      const response = await fetchImpl(`${baseUrl}${path}`, {
        method,
        headers: { authorization: `APIKey ${options.apiKey}`, accept: 'application/json' },
        redirect: 'manual',
        signal: AbortSignal.timeout(requestTimeoutMs),
      });
      const text = await response.text();
      let body: unknown = null;
      try {
        body = text === '' ? null : JSON.parse(text);
      } catch {
        body = undefined;
      }
      return { status: response.status, body };
    } catch (error) {
      log({ path: path.split('?')[0], error: (error as Error).message }, 'video host call failed');
      return null;
    }
  };
  const videoPath = (videoId: string) => `/videos/${encodeURIComponent(videoId)}`;

  return {
    kind: 'http',

    async uploadToken({ name, path }) {
      const answer = await call('GET', `/upload-token?${new URLSearchParams({ name, path })}`);
      if (!answer) return null;
      if (answer.status !== 200) {
        log({ path: '/upload-token', status: answer.status }, 'video host answered an error');
        return null;
      }
      const parsed = uploadTokenAnswerSchema.safeParse(answer.body);
      if (!parsed.success) {
        log({ path: '/upload-token' }, 'video host upload token: unexpected answer');
        return null;
      }
      const { token, servers, video } = parsed.data;
      return {
        videoId: String(video.id),
        endpoint: `https://${servers[0]!.hostname}/upload/`,
        metadata: {
          filename: name,
          token,
          video_id: String(video.id),
          client_id: String(video.client_id),
        },
        headers: {},
        retryDelays: videoUploadRetryDelays,
      };
    },

    async remove(videoId) {
      const answer = await call('DELETE', videoPath(videoId));
      if (!answer) return false;
      if ((answer.status >= 200 && answer.status < 300) || answer.status === 404) return true;
      log({ videoId, status: answer.status }, 'video host refused the removal');
      return false;
    },

    async downloadLink(videoId) {
      const answer = await call('GET', `${videoPath(videoId)}/download-link`);
      if (!answer) return null;
      if (answer.status !== 200) {
        log({ videoId, status: answer.status }, 'video host answered an error');
        return null;
      }
      const parsed = downloadLinkAnswerSchema.safeParse(answer.body);
      if (!parsed.success) {
        log({ videoId }, 'video host download link: unexpected answer');
        return null;
      }
      return parsed.data.link;
    },
  };
}
