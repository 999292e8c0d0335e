/** What the probes feature offers other features' screens: the store page's probe list. */
export { StoreProbeList, type StoreProbeListProps } from './components/store-probe-list';
