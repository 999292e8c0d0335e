import { answerIssue } from '@mise/shared/audits/rules';
import type { AuditAnswerInput, AuditQuestion, AuditResult } from '@mise/shared/audits/schemas';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useCallback, useEffect, useRef, useState } from 'react';
import { useDeviceState } from '../../shared/device/device-state';
import { onRecordSent } from '../../shared/outbox/outbox';
import type { EmployeeSession } from '../../shared/session/employee-session';
import {
  type AuditDraft,
  answerForCheck,
  mergeResult,
  pendingQuestionIds,
  questionsById,
  queueAnswer,
  queueSubmit,
  readDraft,
  storeToday,
  writeDraft,
} from './audit-draft';
import { deviceAuditsKey, fetchAuditResult } from './audits-api';

/** Typing (texts, numbers, comments) is handed to the outbox after this pause. */
export const answerPauseMs = 800;

/** How an answer change is handed to the outbox: at once (a tap) or after a pause (typing). */
export type ChangeMode = 'now' | 'after-pause';

/**
 * The draft of one result on this screen: the kept copy at once (offline too), the server's
 * copy merged in when it answers; each change kept in IndexedDB at once and handed to the
 * outbox (at once, or after a typing pause); whatever is left is handed over when the screen
 * closes or the section changes.
 */
export function useAuditDraft(resultId: string, session: EmployeeSession | null) {
  const queryClient = useQueryClient();
  const timeZone = useDeviceState().context?.store.timezone_name;
  const sessionRef = useRef(session);
  if (session) sessionRef.current = session;
  const stored = useQuery({
    queryKey: ['audit-draft', resultId],
    queryFn: () => readDraft(resultId),
    staleTime: Number.POSITIVE_INFINITY,
    gcTime: 0,
    networkMode: 'always',
  });
  const fresh = useQuery({
    queryKey: ['audit-result', resultId],
    queryFn: () => fetchAuditResult(resultId, sessionRef.current?.token ?? null),
    staleTime: 0,
    gcTime: 0,
    retry: false,
    refetchOnWindowFocus: false,
    networkMode: 'always',
  });
  const [draft, setDraft] = useState<AuditDraft | null>(null);
  const draftRef = useRef<AuditDraft | null>(null);
  const timers = useRef(new Map<string, ReturnType<typeof setTimeout>>());
  const queue = useRef<Promise<void>>(Promise.resolve());

  const commit = useCallback((next: AuditDraft) => {
    draftRef.current = next;
    setDraft(next);
    void writeDraft(next);
  }, []);
  const update = useCallback(
    (change: (current: AuditDraft) => AuditDraft) => {
      if (draftRef.current) commit(change(draftRef.current));
    },
    [commit],
  );

  /** Hands the changed answers (all, or those named) to the outbox, one after the other. */
  const handOver = useCallback(
    (questionIds?: readonly string[]) => {
      queue.current = queue.current
        .then(async () => {
          const current = draftRef.current;
          const who = sessionRef.current;
          if (!current || !who || current.submitted_at !== null) return;
          const questions = questionsById(current.result.sections);
          const today = storeToday(timeZone);
          const handed = new Map<string, AuditAnswerInput | undefined>();
          for (const questionId of current.dirty) {
            if (questionIds && !questionIds.includes(questionId)) continue;
            const question = questions.get(questionId);
            const answer = current.answers[questionId];
            if (question) {
              const given = answer ?? { question_id: questionId };
              // An answer that does not fit stays here, shown with its problem, until corrected.
              if (answerIssue(question, answerForCheck(given, current.files), today)) continue;
              await queueAnswer(current.result, question, given, who);
            }
            handed.set(questionId, answer);
          }
          if (handed.size === 0) return;
          // A question changed again meanwhile stays to hand over.
          update((latest) => ({
            ...latest,
            dirty: latest.dirty.filter(
              (id) => !handed.has(id) || handed.get(id) !== latest.answers[id],
            ),
          }));
        })
        .catch(() => undefined);
      return queue.current;
    },
    [timeZone, update],
  );

  // The kept copy first; then the server's, merged with what this tablet has not sent yet.
  useEffect(() => {
    if (stored.data && !draftRef.current) {
      draftRef.current = stored.data;
      setDraft(stored.data);
      // Changes left from before a reload or a crash go to the outbox now.
      void handOver();
    }
  }, [stored.data, handOver]);
  useEffect(() => {
    if (!stored.isSuccess || !fresh.data) return;
    let isCancelled = false;
    const result = fresh.data;
    void pendingQuestionIds(resultId).then((pending) => {
      if (!isCancelled) commit(mergeResult(draftRef.current, result, pending));
    });
    return () => {
      isCancelled = true;
    };
  }, [stored.isSuccess, fresh.data, resultId, commit]);

  // The server's answer to each record of this result: its copy (status, score) is kept.
  useEffect(() => {
    const stopListening = onRecordSent((record, answer) => {
      if (!record.path.startsWith(`/device/audit-results/${resultId}/`)) return;
      const result = (answer as { result?: AuditResult } | null)?.result;
      if (result) update((current) => ({ ...current, result }));
      if (record.kind === 'audit-submit')
        void queryClient.invalidateQueries({ queryKey: deviceAuditsKey });
    });
    return () => {
      stopListening();
    };
  }, [resultId, update, queryClient]);

  // Leaving the screen hands over whatever is still being typed.
  useEffect(() => {
    const pending = timers.current;
    return () => {
      for (const timer of pending.values()) clearTimeout(timer);
      pending.clear();
      void handOver();
    };
  }, [handOver]);

  const setAnswer = useCallback(
    (
      question: AuditQuestion,
      answer: AuditAnswerInput,
      mode: ChangeMode,
      files?: Record<string, string>,
    ) => {
      update((current) => ({
        ...current,
        answers: { ...current.answers, [question.id]: answer },
        dirty: current.dirty.includes(question.id)
          ? current.dirty
          : [...current.dirty, question.id],
        files: files ? { ...current.files, ...files } : current.files,
      }));
      const waiting = timers.current.get(question.id);
      if (waiting) clearTimeout(waiting);
      timers.current.delete(question.id);
      if (mode === 'now') void handOver([question.id]);
      else
        timers.current.set(
          question.id,
          setTimeout(() => {
            timers.current.delete(question.id);
            void handOver([question.id]);
          }, answerPauseMs),
        );
    },
    [update, handOver],
  );

  const goToSection = useCallback(
    (index: number) => {
      for (const timer of timers.current.values()) clearTimeout(timer);
      timers.current.clear();
      void handOver();
      update((current) => ({ ...current, section_index: index }));
    },
    [update, handOver],
  );

  /** Every answer first, then the submission (the outbox sends them in that order). */
  const submit = useCallback(async () => {
    for (const timer of timers.current.values()) clearTimeout(timer);
    timers.current.clear();
    await handOver();
    const current = draftRef.current;
    const who = sessionRef.current;
    if (!current || !who) return;
    await queueSubmit(current.result, who);
    update((latest) => ({ ...latest, submitted_at: Date.now() }));
  }, [handOver, update]);

  /** After a refused submission: back to the answers (the refused record is dismissed). */
  const reopen = useCallback(() => {
    update((current) => ({ ...current, submitted_at: null }));
  }, [update]);

  return {
    draft,
    isLoading: !draft && (stored.isPending || (stored.data === null && fresh.isPending)),
    loadError: fresh.error,
    today: storeToday(timeZone),
    setAnswer,
    goToSection,
    submit,
    reopen,
  };
}
