import type { AuditAnswerInput, AuditResult } from '@mise/shared/audits/schemas';
import { useCallback, useEffect, useRef, useState } from 'react';
import { isApiError } from '../../../shared/api/api-error';
import { saveAnswers } from '../api/perform-audit';
import { clearDrafts, mergeAnswers, readDrafts, writeDrafts } from './answer-drafts';

/** Quiet time after the last change before the changed answers go in one PATCH. */
export const saveDebounceMs = 600;
/** While the API cannot be reached, unsent answers are tried again this often. */
export const offlineRetryMs = 10_000;

/**
 * saved: everything the server accepted; saving: a save on its way or waiting its turn;
 * offline: the server could not be reached, answers kept on this device; error: the server
 * refused the answers (kept on this device; the next change tries again); submitted: the
 * result was submitted elsewhere and takes no more answers.
 */
export type SaveStatus = 'saved' | 'saving' | 'offline' | 'error' | 'submitted';

type AnswerUpdate = (previous: AuditAnswerInput) => AuditAnswerInput;

type AnswerSyncOptions = {
  /** Whether an answer may be sent (it fits its question); others stay on the device. */
  isSendable: (answer: AuditAnswerInput) => boolean;
};

function clearTimer(timer: { current: number | null }) {
  if (timer.current !== null) window.clearTimeout(timer.current);
  timer.current = null;
}

function isUnreachable(error: unknown): boolean {
  return !isApiError(error) || error.status === 0 || error.status >= 500;
}

/**
 * The answers of a result in progress and their saving: the server's answers with the device's
 * unsent ones over them (sent again at once), each change kept on the device first, then sent
 * in one PATCH ~600 ms after the last change; an unreachable API is tried again every 10 s and
 * when the browser comes back online.
 */
export function useAnswerSync(result: AuditResult, { isSendable }: AnswerSyncOptions) {
  const resultId = result.id;
  // Read once: the device's unsent answers, and the server's with them over.
  const [initial] = useState(() => {
    const drafts = readDrafts(resultId);
    return { drafts, answers: mergeAnswers(result.answers, drafts) };
  });
  const [answers, setAnswers] = useState<ReadonlyMap<string, AuditAnswerInput>>(initial.answers);
  const [status, setStatus] = useState<SaveStatus>(initial.drafts.size > 0 ? 'saving' : 'saved');
  const [lastError, setLastError] = useState<unknown>(null);
  /** Unsent answers, by question id: what localStorage holds. */
  const pending = useRef<Map<string, AuditAnswerInput>>(initial.drafts);
  const answersRef = useRef(answers);
  const debounceTimer = useRef<number | null>(null);
  const retryTimer = useRef<number | null>(null);
  const queue = useRef<Promise<boolean>>(Promise.resolve(true));
  const isSendableRef = useRef(isSendable);
  isSendableRef.current = isSendable;
  const isSubmitted = useRef(false);

  /** One round: sends the sendable unsent answers until none is left; false on a failure. */
  const sendPending = useCallback(async (): Promise<boolean> => {
    for (;;) {
      if (isSubmitted.current) return false;
      const batch = [...pending.current.values()].filter((answer) => isSendableRef.current(answer));
      if (batch.length === 0) {
        setStatus('saved');
        return true;
      }
      setStatus('saving');
      try {
        await saveAnswers(resultId, batch);
      } catch (error) {
        setLastError(error);
        if (isApiError(error, 'audit/result-submitted')) {
          isSubmitted.current = true;
          setStatus('submitted');
        } else if (isUnreachable(error)) {
          setStatus('offline');
          clearTimer(retryTimer);
          retryTimer.current = window.setTimeout(() => void flushRef.current(), offlineRetryMs);
        } else {
          setStatus('error');
        }
        return false;
      }
      for (const sent of batch) {
        // A change made while the save travelled stays pending.
        if (pending.current.get(sent.question_id) === sent)
          pending.current.delete(sent.question_id);
      }
      writeDrafts(resultId, pending.current);
      clearTimer(retryTimer);
      setLastError(null);
    }
  }, [resultId]);

  /** Sends every sendable unsent answer, one round at a time; true when none is left unsent. */
  const flush = useCallback((): Promise<boolean> => {
    clearTimer(debounceTimer);
    const next = queue.current.then(sendPending, sendPending);
    queue.current = next;
    return next;
  }, [sendPending]);
  const flushRef = useRef(flush);
  flushRef.current = flush;

  /** Changes one answer: kept on the device at once, sent after the debounce. */
  const updateAnswer = useCallback(
    (questionId: string, update: AnswerUpdate) => {
      const previous = answersRef.current.get(questionId) ?? { question_id: questionId };
      const next = { ...update(previous), question_id: questionId };
      const nextAnswers = new Map(answersRef.current);
      nextAnswers.set(questionId, next);
      answersRef.current = nextAnswers;
      setAnswers(nextAnswers);
      pending.current.set(questionId, next);
      writeDrafts(resultId, pending.current);
      if (isSubmitted.current) return;
      setStatus((current) => (current === 'offline' ? current : 'saving'));
      clearTimer(debounceTimer);
      debounceTimer.current = window.setTimeout(() => void flush(), saveDebounceMs);
    },
    [flush, resultId],
  );

  /** Forgets what the device kept (after a submission). */
  const discardDrafts = useCallback(() => {
    clearTimer(debounceTimer);
    clearTimer(retryTimer);
    pending.current.clear();
    clearDrafts(resultId);
  }, [resultId]);

  useEffect(() => {
    // Answers kept from an earlier visit go out at once.
    if (pending.current.size > 0) void flush();
    const handleOnline = () => {
      if (pending.current.size > 0) void flush();
    };
    const handlePageHide = () => {
      if (debounceTimer.current !== null) void flush();
    };
    window.addEventListener('online', handleOnline);
    window.addEventListener('pagehide', handlePageHide);
    return () => {
      window.removeEventListener('online', handleOnline);
      window.removeEventListener('pagehide', handlePageHide);
      clearTimer(retryTimer);
      // Leaving the screen within the debounce: the last changes still go (they are kept anyway).
      if (debounceTimer.current !== null) void flush();
    };
  }, [flush]);

  return { answers, status, lastError, updateAnswer, flush, discardDrafts };
}
