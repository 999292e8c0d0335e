import { useRegisterSW } from 'virtual:pwa-register/react';
import { isLanguage, languageNames, languages } from '@mise/shared/i18n/languages';
import { QueryClient, QueryClientProvider, useQuery, useQueryClient } from '@tanstack/react-query';
import { lazy, type ReactNode, Suspense, useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { AlertCenter } from '../features/alerts/alert-center';
import { isAuditingShown } from '../features/audits/audit-access';
import { UnreadCommunicationsBadge } from '../features/communications/use-communications';
import { OutboxScreen } from '../features/outbox/outbox-screen';
import { PairingScreen } from '../features/pairing/pairing-screen';
import { useIsShopShown } from '../features/shop/shop-access';
import { TodayScreen } from '../features/today/today-screen';
import { RequiredTrainingsPrompt } from '../features/trainings/required-trainings-prompt';
import { isTrainingShown } from '../features/trainings/training-access';
import { TrainingsToDoBadge } from '../features/trainings/use-trainings';
import { WhoScreen } from '../features/who/who-screen';
import { apiRequest } from '../shared/api/client';
import { useImageSource } from '../shared/api/protected-file';
import type { DeviceTask } from '../shared/api/types';
import { reportVersions, useDeviceState } from '../shared/device/device-state';
import { changeLanguage } from '../shared/i18n/i18n';
import { cachedQueryOptions } from '../shared/offline/cached-query';
import { NetworkIndicator } from '../shared/outbox/network-indicator';
import { flushOutbox, networkReturned, onRecordSent, refreshOutbox } from '../shared/outbox/outbox';
import {
  endSession,
  expireIdleSession,
  touchSession,
  useEmployeeSession,
} from '../shared/session/employee-session';
import { canOpen, type FeatureKey } from '../shared/session/permissions';
import { ScreenBoundary } from '../shared/ui/screen-boundary';
import { ToastHost } from '../shared/ui/toast';
import { goHome, navigate, type Screen, useScreen } from './navigation';
import { playReminder, useDarkMode, useRotationLock, useWakeLock } from './use-device-effects';

// Screens opened after the day list come as their own chunks: the first screen stays small.
const TaskScreen = lazy(() =>
  import('../features/tasks/task-screen').then((module) => ({ default: module.TaskScreen })),
);
const UnscheduledScreen = lazy(() =>
  import('../features/unscheduled/unscheduled-screen').then((module) => ({
    default: module.UnscheduledScreen,
  })),
);
const ClockScreen = lazy(() =>
  import('../features/clock/clock-screen').then((module) => ({ default: module.ClockScreen })),
);
const LabelsScreen = lazy(() =>
  import('../features/labels/labels-screen').then((module) => ({ default: module.LabelsScreen })),
);
const EncyclopediaScreen = lazy(() =>
  import('../features/encyclopedia/encyclopedia-screen').then((module) => ({
    default: module.EncyclopediaScreen,
  })),
);
const AuditsScreen = lazy(() =>
  import('../features/audits/audits-screen').then((module) => ({ default: module.AuditsScreen })),
);
const AuditScreen = lazy(() =>
  import('../features/audits/audit-screen').then((module) => ({ default: module.AuditScreen })),
);
const CommunicationsScreen = lazy(() =>
  import('../features/communications/communications-screen').then((module) => ({
    default: module.CommunicationsScreen,
  })),
);
const CommunicationScreen = lazy(() =>
  import('../features/communications/communication-screen').then((module) => ({
    default: module.CommunicationScreen,
  })),
);
const TrainingsScreen = lazy(() =>
  import('../features/trainings/trainings-screen').then((module) => ({
    default: module.TrainingsScreen,
  })),
);
const TrainingScreen = lazy(() =>
  import('../features/trainings/training-screen').then((module) => ({
    default: module.TrainingScreen,
  })),
);
const ShopScreen = lazy(() =>
  import('../features/shop/shop-screen').then((module) => ({ default: module.ShopScreen })),
);

/** Minutes without a touch before the screen saver shows. */
export const screenSaverIdleMinutes = 2;

export function createQueryClient(): QueryClient {
  return new QueryClient({
    defaultOptions: {
      queries: {
        retry: false,
        staleTime: 30_000,
        refetchOnWindowFocus: true,
        networkMode: 'offlineFirst',
      },
    },
  });
}

function ScreenView({ screen }: { screen: Screen }) {
  switch (screen.name) {
    case 'today':
      return <TodayScreen />;
    case 'task':
      return <TaskScreen taskId={screen.taskId} />;
    case 'create':
      return <UnscheduledScreen module={screen.module} />;
    case 'clock':
      return <ClockScreen />;
    case 'labels':
      return <LabelsScreen />;
    case 'encyclopedia':
      return <EncyclopediaScreen />;
    case 'outbox':
      return <OutboxScreen />;
    case 'audits':
      return <AuditsScreen />;
    case 'audit':
      return <AuditScreen resultId={screen.resultId} />;
    case 'communications':
      return <CommunicationsScreen />;
    case 'communication':
      return <CommunicationScreen communicationId={screen.communicationId} />;
    case 'trainings':
      return <TrainingsScreen />;
    case 'training':
      return <TrainingScreen trainingId={screen.trainingId} />;
    case 'shop':
      return <ShopScreen />;
  }
}

type MenuEntry = { screen: Screen; label: string; feature?: FeatureKey; badge?: ReactNode };

function BackOfficeButton({ page }: { page: 'history' | 'documents' | 'settings' }) {
  const { t } = useTranslation();
  const handleOpen = async () => {
    // The link carries a short-lived single-use token for the device's linked user.
    const opened = window.open('', '_blank');
    try {
      const { url } = await apiRequest<{ url: string }>('/device/back-office-link', {
        method: 'POST',
        body: { page },
      });
      if (opened) opened.location.href = url;
      else window.location.assign(url);
    } catch {
      opened?.close();
    }
  };
  return (
    <button type="button" className="button" onClick={() => void handleOpen()}>
      {t(`modules.extension.${page}`)}
    </button>
  );
}

function Menu() {
  const { t } = useTranslation();
  const screen = useScreen();
  const { context, device } = useDeviceState();
  const session = useEmployeeSession();
  const isShopShown = useIsShopShown();
  const entries: MenuEntry[] = [
    { screen: { name: 'today' }, label: t('app.menu.today') },
    { screen: { name: 'clock' }, label: t('app.menu.clock') },
    { screen: { name: 'labels' }, label: t('app.menu.labels'), feature: 'labels' },
    {
      screen: { name: 'encyclopedia' },
      label: t('app.menu.encyclopedia'),
      feature: 'encyclopedia',
    },
  ];
  if (device?.show_unscheduled_tasks ?? true) {
    entries.push(
      {
        screen: { name: 'create', module: 'traceability' },
        label: t('app.menu.traceability'),
        feature: 'traceability',
      },
      {
        screen: { name: 'create', module: 'temperature_control' },
        label: t('app.menu.temperature_control'),
        feature: 'temperature_control',
      },
    );
  }
  if (isAuditingShown(context))
    entries.push({ screen: { name: 'audits' }, label: t('audits.menu') });
  entries.push({
    screen: { name: 'communications' },
    label: t('communications.menu'),
    badge: <UnreadCommunicationsBadge />,
  });
  if (isTrainingShown(context))
    entries.push({
      screen: { name: 'trainings' },
      label: t('trainings.menu'),
      badge: <TrainingsToDoBadge />,
    });
  if (isShopShown) entries.push({ screen: { name: 'shop' }, label: t('shop.menu') });
  const pages = (['history', 'documents', 'settings'] as const).filter((page) =>
    canOpen(page, context, session),
  );
  return (
    <nav className="menu" aria-label={t('app.title')}>
      {entries
        .filter((entry) => !entry.feature || canOpen(entry.feature, context, session))
        .map((entry) => {
          const isCurrent =
            entry.screen.name === screen.name &&
            (entry.screen.name !== 'create' ||
              (screen.name === 'create' && screen.module === entry.screen.module));
          return (
            <button
              key={entry.label}
              type="button"
              className={isCurrent ? 'button button--primary' : 'button'}
              aria-current={isCurrent ? 'page' : undefined}
              onClick={() => navigate(entry.screen)}
            >
              {entry.label}
              {entry.badge}
            </button>
          );
        })}
      {pages.map((page) => (
        <BackOfficeButton key={page} page={page} />
      ))}
    </nav>
  );
}

function LanguagePicker() {
  const { t, i18n } = useTranslation();
  return (
    <select
      className="select topbar__language"
      aria-label={t('app.language')}
      value={i18n.language}
      onChange={(event) => {
        if (isLanguage(event.target.value)) void changeLanguage(event.target.value);
      }}
    >
      {languages.map((language) => (
        <option key={language} value={language}>
          {languageNames[language]}
        </option>
      ))}
    </select>
  );
}

function UpdatePrompt() {
  const { t } = useTranslation();
  const {
    needRefresh: [needRefresh, setNeedRefresh],
    updateServiceWorker,
  } = useRegisterSW({
    onRegisteredSW(_url, registration) {
      // Looks for a new version every 30 minutes; it is offered, never forced mid-task.
      if (registration) setInterval(() => void registration.update(), 30 * 60_000);
    },
  });
  if (!needRefresh) return null;
  return (
    <div className="update card row" role="status">
      <span>{t('app.newVersion')}</span>
      <span className="spacer" />
      <button type="button" className="button" onClick={() => setNeedRefresh(false)}>
        {t('app.later')}
      </button>
      <button
        type="button"
        className="button button--primary"
        onClick={() => void updateServiceWorker(true)}
      >
        {t('app.install')}
      </button>
    </div>
  );
}

/** Audio reminders: a chime when a task of the day opens (its start passes), if enabled. */
function useTaskReminders(isEnabled: boolean): void {
  const tasks = useQuery({
    ...cachedQueryOptions<{ items: DeviceTask[] }>('tasks'),
    enabled: false,
  });
  const lastCheck = useRef(Date.now());
  useEffect(() => {
    if (!isEnabled) return;
    const timer = setInterval(() => {
      const now = Date.now();
      const opened = (tasks.data?.items ?? []).some((task) => {
        const start = Date.parse(task.start);
        return !task.completed_timestamp && start > lastCheck.current && start <= now;
      });
      lastCheck.current = now;
      if (opened) playReminder();
    }, 15_000);
    return () => clearInterval(timer);
  }, [isEnabled, tasks.data]);
}

function ScreenSaver({ url, onWake }: { url: string | null; onWake: () => void }) {
  const { t } = useTranslation();
  const source = useImageSource(url);
  const [time, setTime] = useState(() => new Date());
  useEffect(() => {
    const timer = setInterval(() => setTime(new Date()), 30_000);
    return () => clearInterval(timer);
  }, []);
  return (
    <button
      type="button"
      className="screensaver"
      aria-label={t('screensaver.label')}
      onClick={onWake}
    >
      {source && <img src={source} alt="" />}
      <span className="screensaver__clock">
        {time.toLocaleTimeString([], { hour: '2-digit', minute: '2-digit' })}
      </span>
    </button>
  );
}

/** Paired tablet: the top bar, the idle rules, the outbox's sending, and the current screen. */
function PairedShell() {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const { device, context, blockedCode } = useDeviceState();
  const session = useEmployeeSession();
  const screen = useScreen();
  const [isIdle, setIsIdle] = useState(false);
  const lastTouch = useRef(Date.now());
  useDarkMode(device);
  useWakeLock(device);
  useRotationLock(device);
  useTaskReminders(device?.audio_task_reminders ?? false);

  useEffect(() => {
    void reportVersions();
    void refreshOutbox().then(() => flushOutbox());
    // The day's lists are read while the employee identifies: the list shows at once after.
    void queryClient.prefetchQuery(cachedQueryOptions('tasks'));
    void queryClient.prefetchQuery(cachedQueryOptions('elements'));
    let refetchTimer: ReturnType<typeof setTimeout> | null = null;
    const stopListening = onRecordSent((record, answer) => {
      const sent = (answer as { task?: DeviceTask } | null)?.task;
      if (sent && record.kind !== 'punch')
        queryClient.setQueryData<{ day: string; items: DeviceTask[] }>(['tasks'], (old) => {
          if (!old) return old;
          const isListed = old.items.some((item) => item.id === sent.id);
          // An unscheduled task joins the list of its day as the server made it.
          if (!isListed)
            return sent.day === old.day ? { ...old, items: [...old.items, sent] } : old;
          return { ...old, items: old.items.map((item) => (item.id === sent.id ? sent : item)) };
        });
      // One refresh after a burst of sends, not one per record.
      if (refetchTimer) clearTimeout(refetchTimer);
      refetchTimer = setTimeout(
        () => void queryClient.invalidateQueries({ queryKey: ['tasks'] }),
        400,
      );
    });
    const handleOnline = () => {
      void networkReturned();
      void queryClient.invalidateQueries();
    };
    const handleTouch = () => {
      lastTouch.current = Date.now();
      touchSession();
    };
    window.addEventListener('online', handleOnline);
    window.addEventListener('pointerdown', handleTouch, { capture: true });
    window.addEventListener('keydown', handleTouch, { capture: true });
    const timer = setInterval(() => {
      void expireIdleSession();
      if (Date.now() - lastTouch.current > screenSaverIdleMinutes * 60_000) setIsIdle(true);
      void flushOutbox();
    }, 5000);
    return () => {
      stopListening();
      if (refetchTimer) clearTimeout(refetchTimer);
      window.removeEventListener('online', handleOnline);
      window.removeEventListener('pointerdown', handleTouch, { capture: true });
      window.removeEventListener('keydown', handleTouch, { capture: true });
      clearInterval(timer);
    };
  }, [queryClient]);

  const handleWake = () => {
    lastTouch.current = Date.now();
    setIsIdle(false);
  };

  let content: ReactNode;
  if (blockedCode) content = <p className="error-text">{t('app.unlicensed')}</p>;
  else if (!session) content = <WhoScreen />;
  else
    content = (
      <>
        <Menu />
        {isTrainingShown(context) ? <RequiredTrainingsPrompt /> : null}
        <ScreenBoundary
          screenKey={JSON.stringify(screen)}
          fallback={() => (
            <div className="card stack" role="alert">
              <p>{t('app.screenFailed')}</p>
              <div className="row">
                <button type="button" className="button button--primary" onClick={goHome}>
                  {t('app.menu.today')}
                </button>
                <button type="button" className="button" onClick={() => window.location.reload()}>
                  {t('app.reload')}
                </button>
              </div>
            </div>
          )}
        >
          <Suspense fallback={<p className="muted">{t('common.loading')}</p>}>
            <ScreenView screen={screen} />
          </Suspense>
        </ScreenBoundary>
      </>
    );

  return (
    <div className="shell">
      <header className="topbar">
        <span className="topbar__store">
          {context?.store.name ?? device?.name ?? t('app.title')}
        </span>
        <span className="spacer" />
        <NetworkIndicator />
        {session && (
          <>
            <span className="topbar__employee">
              {session.employee.name} {session.employee.surname}
            </span>
            <button type="button" className="button" onClick={() => void endSession()}>
              {t('app.changeEmployee')}
            </button>
          </>
        )}
        <LanguagePicker />
      </header>
      <AlertCenter
        isAudioOn={device?.audio_task_reminders ?? false}
        isIdle={isIdle}
        onWake={handleWake}
      />
      <main className="content">{content}</main>
      <UpdatePrompt />
      {isIdle && <ScreenSaver url={context?.screen_saver_url ?? null} onWake={handleWake} />}
    </div>
  );
}

export function App({ queryClient }: { queryClient: QueryClient }) {
  return (
    <QueryClientProvider client={queryClient}>
      <AppContent />
      <ToastHost />
    </QueryClientProvider>
  );
}

function AppContent() {
  const { status } = useDeviceState();
  if (status === 'loading') return null;
  if (status === 'unpaired') return <PairingScreen />;
  return <PairedShell />;
}
