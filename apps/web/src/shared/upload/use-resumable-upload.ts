import { maxDocumentBytes } from '@mise/shared/documents/schemas';
import { defaultMessages, errorStatus } from '@mise/shared/errors/codes';
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { type PreviousUpload, Upload } from 'tus-js-client';
import { apiRequest, refreshCsrfToken } from '../api/api-client';
import { ApiError } from '../api/api-error';
import { errorMessage } from '../i18n/error-message';
import { addProgressSample, type ProgressSample, progressFigures } from './progress-figures';
import {
  isResumableError,
  retryDecisionOf,
  UploadCancelledError,
  uploadErrorOf,
} from './upload-errors';

/** The resumable uploads endpoint (tus 1.0, apps/server/src/modules/uploads). */
export const uploadEndpointPath = '/api/uploads';
/** Spec 002 §7: a failed request is sent again after 0, 3, 5, 10 and 20 s. */
export const uploadRetryDelays = [0, 3, 5, 10, 20].map((seconds) => seconds * 1000);
/** Spec 002 §5, §9: 500 MB at most ('documents.file-too-big'), checked before anything is sent. */
export const maxUploadBytes = maxDocumentBytes;

export type UploadStatus = 'idle' | 'uploading' | 'paused' | 'done' | 'error';

export type UploadState = {
  status: UploadStatus;
  bytesSent: number;
  bytesTotal: number;
  /** Over the last seconds; 0 while unknown (start, pause, error). */
  speedBytesPerSecond: number;
  /** At that speed; null while unknown. */
  secondsLeft: number | null;
  /** The code and its translated text ('documents.file-too-big', 'network'…). */
  error?: { code: string; message: string };
  /** The name of the file being sent (the last one once done). */
  fileName?: string;
};

/** Upload-Metadata the server checks: the purpose (e.g. 'database-element-attachment') and its record. */
export type UploadMeta = { purpose: string; owner: string };

/** GET /api/uploads/:id: what the purpose answered once every byte arrived. */
export type UploadOutcome = {
  id: string;
  purpose: string;
  owner: string;
  filename: string;
  size: number;
  offset: number;
  status: 'uploading' | 'completed' | 'failed';
  result: Record<string, unknown> | null;
  error: { code: string; message: string } | null;
};

export type ResumableUpload = {
  /**
   * Sends `file` (resuming the same file's earlier upload for the same purpose and record, even
   * after a reload). Resolves with the outcome once the server has stored the file; rejects
   * with an ApiError for a refusal (its code: 'documents.file-too-big', 'documents.file-exists',
   * 'permission/denied'…) or with an UploadCancelledError. A connection still lost after every
   * retry leaves the state in 'error' (code 'network') and the promise pending: resume() goes on,
   * cancel() gives up.
   */
  start(file: File, meta: UploadMeta): Promise<UploadOutcome>;
  /** Stops sending; the bytes already stored stay on the server. */
  pause(): void;
  /** Goes on from the server's offset after a pause or a lost connection. */
  resume(): void;
  /** Stops and deletes the upload on the server. */
  cancel(): void;
  state: UploadState;
};

export const idleUploadState: UploadState = {
  status: 'idle',
  bytesSent: 0,
  bytesTotal: 0,
  speedBytesPerSecond: 0,
  secondsLeft: null,
};

/**
 * An upload under way: sending, paused, or stopped by a lost connection (resume or cancel it).
 * A refusal, a cancellation or the end leave this.
 */
export function isUploadActive(state: UploadState): boolean {
  if (state.status === 'uploading' || state.status === 'paused') return true;
  return state.status === 'error' && !!state.error && isResumableError(state.error);
}

/**
 * The key an unfinished upload is found again by (tus URL storage, localStorage): the same file
 * for the same purpose and record. Another record's upload of the same file is never resumed.
 */
export function uploadFingerprintOf(file: File, meta: UploadMeta): string {
  return ['mise', meta.purpose, meta.owner, file.name, file.type, file.size, file.lastModified]
    .map((part) => encodeURIComponent(String(part)))
    .join('/');
}

const sleep = (milliseconds: number) =>
  new Promise<void>((resolve) => setTimeout(resolve, milliseconds));

/** The outcome of a finished upload, asked again (with the spec's delays) when unreachable. */
async function readOutcome(id: string): Promise<UploadOutcome> {
  for (let attempt = 0; ; attempt++) {
    try {
      return await apiRequest<UploadOutcome>(`/uploads/${encodeURIComponent(id)}`);
    } catch (error) {
      const delay = uploadRetryDelays[attempt];
      if (!(error instanceof ApiError) || !isResumableError(error) || delay === undefined) {
        throw error;
      }
      await sleep(delay);
    }
  }
}

function outcomeError(outcome: UploadOutcome): ApiError {
  const code = (outcome.error?.code ?? 'unknown') as ApiError['code'];
  return new ApiError({
    status: (errorStatus as Record<string, number>)[code] ?? 0,
    code,
    message: outcome.error?.message ?? 'The upload was not completed.',
  });
}

const latestFirst = (a: PreviousUpload, b: PreviousUpload) =>
  b.creationTime.localeCompare(a.creationTime);

type Run = {
  file: File;
  meta: UploadMeta;
  upload: Upload | null;
  samples: ProgressSample[];
  /** Paused, or stopped by a lost connection: resume() may go on. */
  isStopped: boolean;
  /** Every byte is in: the outcome is being read. */
  isFinishing: boolean;
  resolve: (outcome: UploadOutcome) => void;
  reject: (error: unknown) => void;
};

/**
 * A resumable upload (tus) of one file at a time to /api/uploads, with the session's CSRF token
 * on every request, the spec's retry delays, its progress (speed, time left), pause, resume and
 * cancel. Leaving the screen stops the upload without deleting it: choosing the same file again
 * for the same record goes on from where it stopped.
 */
export function useResumableUpload(): ResumableUpload {
  const { t } = useTranslation();
  const [state, setState] = useState<UploadState>(idleUploadState);
  const runRef = useRef<Run | null>(null);

  useEffect(
    () => () => {
      const run = runRef.current;
      runRef.current = null;
      if (run?.upload && !run.isFinishing) void run.upload.abort();
    },
    [],
  );

  const showError = useCallback(
    (error: ApiError, status: UploadStatus = 'error') =>
      setState((current) => ({
        ...current,
        status,
        speedBytesPerSecond: 0,
        secondsLeft: null,
        error: { code: error.code, message: errorMessage(t, error) },
      })),
    [t],
  );

  const fail = useCallback(
    (run: Run, raw: unknown) => {
      const error = uploadErrorOf(raw);
      if (isResumableError(error)) {
        run.isStopped = true;
        run.isFinishing = false;
        showError(error);
        return;
      }
      runRef.current = null;
      showError(error);
      run.reject(error);
    },
    [showError],
  );

  const finish = useCallback(
    (run: Run, upload: Upload) => {
      run.isFinishing = true;
      const id = upload.url?.split('/').pop() ?? '';
      readOutcome(id)
        .then((outcome) => {
          if (runRef.current !== run) return;
          if (outcome.status !== 'completed') {
            fail(run, outcomeError(outcome));
            return;
          }
          runRef.current = null;
          setState((current) => ({
            ...current,
            status: 'done',
            bytesSent: current.bytesTotal,
            speedBytesPerSecond: 0,
            secondsLeft: 0,
            error: undefined,
          }));
          run.resolve(outcome);
        })
        .catch((error: unknown) => {
          if (runRef.current === run) fail(run, error);
        });
    },
    [fail],
  );

  /** A tus client for the run, resumed from the file's stored upload when there is one. */
  const launch = useCallback(
    (run: Run) => {
      let csrfToken = refreshCsrfToken();
      let hasRefreshedCsrf = false;
      const { file, meta } = run;
      const upload: Upload = new Upload(file, {
        endpoint: new URL(uploadEndpointPath, window.location.origin).toString(),
        metadata: {
          purpose: meta.purpose,
          owner: meta.owner,
          filename: file.name,
          filetype: file.type || 'application/octet-stream',
        },
        retryDelays: uploadRetryDelays,
        fingerprint: async () => uploadFingerprintOf(file, meta),
        storeFingerprintForResuming: true,
        removeFingerprintOnSuccess: true,
        async onBeforeRequest(request) {
          const token = await csrfToken;
          if (token) request.setHeader('x-csrf-token', token);
        },
        onShouldRetry(error) {
          const response = error.originalResponse;
          const decision = response
            ? retryDecisionOf(response.getStatus(), response.getBody())
            : 'retry';
          if (decision !== 'refresh-csrf') return decision === 'retry';
          if (hasRefreshedCsrf) return false;
          hasRefreshedCsrf = true;
          csrfToken = refreshCsrfToken();
          return true;
        },
        onProgress(bytesSent, bytesTotal) {
          if (runRef.current !== run || run.upload !== upload || run.isStopped) return;
          run.samples = addProgressSample(run.samples, { at: performance.now(), bytes: bytesSent });
          const figures = progressFigures(run.samples, bytesTotal);
          setState((current) => ({ ...current, bytesSent, bytesTotal, ...figures }));
        },
        onSuccess() {
          if (runRef.current === run && run.upload === upload) finish(run, upload);
        },
        onError(error) {
          if (runRef.current === run && run.upload === upload) fail(run, error);
        },
      });
      run.upload = upload;
      run.samples = [];
      run.isStopped = false;
      upload
        .findPreviousUploads()
        .then((previous) => {
          const latest = [...previous].sort(latestFirst)[0];
          if (latest) upload.resumeFromPreviousUpload(latest);
        })
        .catch(() => undefined)
        .then(() => {
          if (runRef.current === run && run.upload === upload) upload.start();
        });
    },
    [fail, finish],
  );

  const start = useCallback(
    (file: File, meta: UploadMeta): Promise<UploadOutcome> => {
      if (runRef.current) return Promise.reject(new Error('An upload is already running.'));
      const base = { ...idleUploadState, bytesTotal: file.size, fileName: file.name };
      if (file.size > maxUploadBytes) {
        const error = new ApiError({
          status: errorStatus['documents.file-too-big'],
          code: 'documents.file-too-big',
          message: defaultMessages['documents.file-too-big'],
        });
        setState(base);
        showError(error);
        return Promise.reject(error);
      }
      return new Promise<UploadOutcome>((resolve, reject) => {
        const run: Run = {
          file,
          meta,
          upload: null,
          samples: [],
          isStopped: false,
          isFinishing: false,
          resolve,
          reject,
        };
        runRef.current = run;
        setState({ ...base, status: 'uploading' });
        launch(run);
      });
    },
    [launch, showError],
  );

  const pause = useCallback(() => {
    const run = runRef.current;
    if (!run || run.isStopped || run.isFinishing) return;
    run.isStopped = true;
    void run.upload?.abort();
    setState((current) => ({
      ...current,
      status: 'paused',
      speedBytesPerSecond: 0,
      secondsLeft: null,
    }));
  }, []);

  const resume = useCallback(() => {
    const run = runRef.current;
    if (!run?.isStopped) return;
    void run.upload?.abort();
    setState((current) => ({ ...current, status: 'uploading', error: undefined }));
    launch(run);
  }, [launch]);

  const cancel = useCallback(() => {
    const run = runRef.current;
    if (!run || run.isFinishing) return;
    runRef.current = null;
    // Deletes the upload on the server (and its stored fingerprint); a failure leaves it to expire.
    void run.upload?.abort(true).catch(() => undefined);
    setState(idleUploadState);
    run.reject(new UploadCancelledError());
  }, []);

  return useMemo(
    () => ({ start, pause, resume, cancel, state }),
    [start, pause, resume, cancel, state],
  );
}
