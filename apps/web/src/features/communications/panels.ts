/** What the communications feature offers other features' screens: the home's panel. */
export { CommunicationsHomePanel } from './components/communications-home-panel';
