import { useQuery, useQueryClient } from '@tanstack/react-query';
import { type ReactNode, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { goHome, navigate } from '../../app/navigation';
import { ApiError, NetworkError } from '../../shared/api/client';
import { useDeviceState } from '../../shared/device/device-state';
import { errorText } from '../../shared/i18n/i18n';
import { useOutbox } from '../../shared/outbox/use-outbox';
import { useEmployeeSession } from '../../shared/session/employee-session';
import { formatDate } from '../../shared/ui/format';
import { isAuditingShown, mayAudit } from './audit-access';
import {
  type AuditDraft,
  cleanUpDrafts,
  findOpenDraft,
  listDrafts,
  mergeResult,
  pendingQuestionIds,
  readDraft,
  writeDraft,
} from './audit-draft';
import {
  type DeviceAudit,
  type DeviceAudits,
  deviceAuditsKey,
  fetchDeviceAudits,
  keepDeviceAudits,
  refusalText,
  startAuditResult,
} from './audits-api';
import './audits.css';

const draftsKey = ['audit-drafts'] as const;

type AuditCardProps = {
  audit: DeviceAudit;
  draft: AuditDraft | undefined;
  isWaiting: boolean;
  isOpening: boolean;
  onOpen: () => void;
};

function AuditCard({ audit, draft, isWaiting, isOpening, onOpen }: AuditCardProps) {
  const { t } = useTranslation();
  const isInProgress = audit.in_progress_result_id !== null || draft !== undefined;
  return (
    <li>
      <button type="button" className="audits__card" onClick={onOpen} disabled={isOpening}>
        <span className="audits__name">{audit.name}</span>
        <span className="muted">
          {t('audits.counts', {
            sections: audit.section_count,
            questions: audit.question_count,
          })}
        </span>
        <span className="row audits__states">
          {isInProgress ? (
            <span className="badge status--on-time">{t('audits.inProgress')}</span>
          ) : null}
          {isWaiting ? <span className="badge status--waiting">{t('audits.waiting')}</span> : null}
          <span className="muted">
            {audit.last_submitted_at
              ? t('audits.lastSubmitted', {
                  date: formatDate(audit.last_submitted_at, { withTime: true }),
                })
              : t('audits.neverSubmitted')}
          </span>
        </span>
        <span className="button button--primary audits__action">
          {isOpening
            ? t('audits.opening')
            : isInProgress
              ? t('audits.continue')
              : t('audits.start')}
        </span>
      </button>
    </li>
  );
}

/**
 * Audits (issue 16): the store's self-evaluation audits, published and active. Opening one
 * starts the store's draft or resumes it (any allowed employee goes on with it); offline, a
 * draft kept on this tablet opens, a new one needs the network.
 */
export function AuditsScreen() {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const { context } = useDeviceState();
  const session = useEmployeeSession();
  const outbox = useOutbox();
  const isShown = isAuditingShown(context);
  const isAllowed = mayAudit(context, session);
  const audits = useQuery({
    queryKey: deviceAuditsKey,
    queryFn: () =>
      fetchDeviceAudits(session?.token ?? null, async (list) => {
        // The server's list says which drafts are still open: the closed ones are forgotten.
        await cleanUpDrafts(
          new Set(list.items.flatMap((item) => item.in_progress_result_id ?? [])),
        );
        await queryClient.invalidateQueries({ queryKey: draftsKey });
      }),
    enabled: isShown && isAllowed,
    networkMode: 'always',
    retry: false,
  });
  const drafts = useQuery({
    queryKey: draftsKey,
    queryFn: listDrafts,
    // Read again on each visit: a draft submitted meanwhile no longer shows as open.
    staleTime: 0,
    enabled: isShown && isAllowed,
    networkMode: 'always',
  });
  const [openingId, setOpeningId] = useState<string | null>(null);
  const [problem, setProblem] = useState<string | null>(null);

  const openDraftOf = (auditId: string) =>
    (drafts.data ?? []).find(
      (draft) =>
        draft.result.audit_id === auditId &&
        draft.result.status === 'in_progress' &&
        draft.submitted_at === null,
    );
  const waitingPaths = new Set(outbox.waiting.map((record) => record.path));
  const isSubmitWaiting = (auditId: string) =>
    (drafts.data ?? []).some(
      (draft) =>
        draft.result.audit_id === auditId &&
        waitingPaths.has(`/device/audit-results/${draft.result.id}/submit`),
    );

  const handleOpen = async (audit: DeviceAudit) => {
    if (!session) return;
    setProblem(null);
    setOpeningId(audit.id);
    try {
      const result = await startAuditResult(audit.id, session.token);
      const kept = await readDraft(result.id);
      await writeDraft(mergeResult(kept, result, await pendingQuestionIds(result.id)));
      const list = queryClient.setQueryData<DeviceAudits>(deviceAuditsKey, (old) =>
        old
          ? {
              items: old.items.map((item) =>
                item.id === audit.id ? { ...item, in_progress_result_id: result.id } : item,
              ),
            }
          : old,
      );
      if (list) await keepDeviceAudits(list);
      navigate({ name: 'audit', resultId: result.id });
    } catch (error) {
      if (error instanceof NetworkError) {
        const kept =
          (await findOpenDraft(audit.id)) ??
          (audit.in_progress_result_id ? await readDraft(audit.in_progress_result_id) : null);
        if (kept) navigate({ name: 'audit', resultId: kept.result.id });
        else setProblem(t('audits.needsConnection'));
      } else setProblem(refusalText(error));
    } finally {
      setOpeningId(null);
    }
  };

  let content: ReactNode;
  if (!isShown) content = <p className="muted">{t('audits.hidden')}</p>;
  else if (!isAllowed || (audits.error instanceof ApiError && audits.error.status === 403))
    content = (
      <p className="error-text" role="alert">
        {audits.error ? refusalText(audits.error) : errorText('permission/denied')}
      </p>
    );
  else if (!audits.data)
    content = (
      <p className={audits.isError ? 'error-text' : 'muted'}>
        {audits.isError ? refusalText(audits.error) : t('common.loading')}
      </p>
    );
  else if (audits.data.items.length === 0) content = <p className="muted">{t('audits.empty')}</p>;
  else
    content = (
      <ul className="audits__list">
        {audits.data.items.map((audit) => (
          <AuditCard
            key={audit.id}
            audit={audit}
            draft={openDraftOf(audit.id)}
            isWaiting={isSubmitWaiting(audit.id)}
            isOpening={openingId === audit.id}
            onOpen={() => void handleOpen(audit)}
          />
        ))}
      </ul>
    );

  return (
    <section className="stack audits" aria-labelledby="audits-title">
      <div className="screen-header">
        <button type="button" className="button button--ghost" onClick={goHome}>
          {t('common.back')}
        </button>
        <h1 id="audits-title">{t('audits.title')}</h1>
      </div>
      {problem ? (
        <p className="error-text" role="alert">
          {problem}
        </p>
      ) : null}
      {content}
    </section>
  );
}
