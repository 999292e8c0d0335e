/** What the audit results feature offers other features' screens: the home's audits panel. */
export { AuditsHomePanel } from './components/audits-home-panel';
