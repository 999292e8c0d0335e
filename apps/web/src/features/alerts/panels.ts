/**
 * What the alerts feature offers other features' screens: the home page's panel, the probe
 * page's episodes (list and query) and the query key the store's live events refresh.
 */
export { alertsQueryKey } from './api/alerts-query-keys';
export { useAlerts } from './api/get-alerts';
export { AlertEpisodeList } from './components/alert-episode-list';
export { AlertsPanel } from './components/alerts-panel';
