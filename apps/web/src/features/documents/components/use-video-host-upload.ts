import type { VideoUploadTicket } from '@mise/shared/documents/schemas';
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { DetailedError, Upload } from 'tus-js-client';
import { ApiError } from '../../../shared/api/api-error';
import { errorMessage } from '../../../shared/i18n/error-message';
import {
  addProgressSample,
  type ProgressSample,
  progressFigures,
} from '../../../shared/upload/progress-figures';
import { isResumableError, UploadCancelledError } from '../../../shared/upload/upload-errors';
import type { ResumableUpload, UploadState } from '../../../shared/upload/use-resumable-upload';

/** Nothing sent (the same as the resumable upload's idle state). */
const idleUploadState: UploadState = {
  status: 'idle',
  bytesSent: 0,
  bytesTotal: 0,
  speedBytesPerSecond: 0,
  secondsLeft: null,
};

/**
 * The error a failed request to the video host shows: no answer or a server error after every
 * retry is a lost connection (resume goes on from the host's offset); any other answer is the
 * host refusing ('documents.video-host-failed', final).
 */
export function videoHostErrorOf(error: unknown): ApiError {
  const status =
    error instanceof DetailedError ? (error.originalResponse?.getStatus() ?? 0) : undefined;
  if (status === 0 || (status !== undefined && status >= 500)) {
    return new ApiError({ status: 0, code: 'network', message: 'Unable to reach the video host' });
  }
  return new ApiError({
    status: status ?? 0,
    code: 'documents.video-host-failed',
    message: error instanceof Error ? error.message : 'The video host refused the upload.',
  });
}

/** Whether a failed request to the host is sent again: no answer, 409, 423, 429 or 5xx. */
function isRetried(error: DetailedError): boolean {
  const status = error.originalResponse?.getStatus() ?? 0;
  return status === 0 || status >= 500 || status === 409 || status === 423 || status === 429;
}

type Run = {
  file: File;
  ticket: VideoUploadTicket;
  upload: Upload | null;
  samples: ProgressSample[];
  /** Paused, or stopped by a lost connection: resume() goes on. */
  isStopped: boolean;
  resolve: () => void;
  reject: (error: unknown) => void;
};

/**
 * A video's bytes sent with tus to an outside video host (spec 002 §7): the ticket's endpoint,
 * Upload-Metadata and headers, its retry delays (0, 3, 5, 10, 20 s), no cookie nor CSRF token of
 * ours. The same progress (speed, time left), pause, resume and cancel as the resumable upload
 * to our server; `controls` is what UploadProgress draws. Resuming goes on from the host's
 * offset (a HEAD on the upload's address); a reload starts the video again.
 */
export function useVideoHostUpload() {
  const { t } = useTranslation();
  const [state, setState] = useState<UploadState>(idleUploadState);
  const runRef = useRef<Run | null>(null);

  useEffect(
    () => () => {
      const run = runRef.current;
      runRef.current = null;
      if (run?.upload) void run.upload.abort();
    },
    [],
  );

  const showError = useCallback(
    (error: ApiError) =>
      setState((current) => ({
        ...current,
        status: 'error',
        speedBytesPerSecond: 0,
        secondsLeft: null,
        error: { code: error.code, message: errorMessage(t, error) },
      })),
    [t],
  );

  const fail = useCallback(
    (run: Run, raw: unknown) => {
      const error = videoHostErrorOf(raw);
      if (isResumableError(error)) {
        run.isStopped = true;
        showError(error);
        return;
      }
      runRef.current = null;
      showError(error);
      run.reject(error);
    },
    [showError],
  );

  const launch = useCallback(
    (run: Run) => {
      const { file, ticket } = run;
      const upload = new Upload(file, {
        endpoint: ticket.endpoint,
        metadata: ticket.metadata,
        headers: ticket.headers,
        retryDelays: ticket.retryDelays,
        storeFingerprintForResuming: false,
        onShouldRetry: isRetried,
        onProgress(bytesSent, bytesTotal) {
          if (runRef.current !== run || run.isStopped) return;
          run.samples = addProgressSample(run.samples, { at: performance.now(), bytes: bytesSent });
          const figures = progressFigures(run.samples, bytesTotal);
          setState((current) => ({ ...current, bytesSent, bytesTotal, ...figures }));
        },
        onSuccess() {
          if (runRef.current !== run) return;
          runRef.current = null;
          setState((current) => ({
            ...current,
            status: 'done',
            bytesSent: current.bytesTotal,
            speedBytesPerSecond: 0,
            secondsLeft: 0,
            error: undefined,
          }));
          run.resolve();
        },
        onError(error) {
          if (runRef.current === run) fail(run, error);
        },
      });
      run.upload = upload;
      upload.start();
    },
    [fail],
  );

  /** Sends `file` as the ticket says; rejects with an ApiError or an UploadCancelledError. */
  const send = useCallback(
    (file: File, ticket: VideoUploadTicket): Promise<void> => {
      if (runRef.current) return Promise.reject(new Error('An upload is already running.'));
      return new Promise<void>((resolve, reject) => {
        const run: Run = {
          file,
          ticket,
          upload: null,
          samples: [],
          isStopped: false,
          resolve,
          reject,
        };
        runRef.current = run;
        setState({
          ...idleUploadState,
          status: 'uploading',
          bytesTotal: file.size,
          fileName: file.name,
        });
        launch(run);
      });
    },
    [launch],
  );

  const pause = useCallback(() => {
    const run = runRef.current;
    if (!run || run.isStopped) return;
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
    if (!run?.isStopped || !run.upload) return;
    run.isStopped = false;
    run.samples = [];
    setState((current) => ({ ...current, status: 'uploading', error: undefined }));
    // The same tus upload: it asks the host for its offset, then goes on from there.
    run.upload.start();
  }, []);

  const cancel = useCallback(() => {
    const run = runRef.current;
    if (!run) return;
    runRef.current = null;
    // Ends the upload at the host too (a failure leaves it to the host's expiry).
    void run.upload?.abort(true).catch(() => undefined);
    setState(idleUploadState);
    run.reject(new UploadCancelledError());
  }, []);

  /** What UploadProgress draws and its buttons call (start belongs to send()). */
  const controls = useMemo<ResumableUpload>(
    () => ({
      start: () => Promise.reject(new Error('Videos for the video host are sent with send().')),
      pause,
      resume,
      cancel,
      state,
    }),
    [pause, resume, cancel, state],
  );

  return useMemo(() => ({ send, controls }), [send, controls]);
}

export type VideoHostUpload = ReturnType<typeof useVideoHostUpload>;
