/**
 * What the inspector feature offers other features' screens: the store screen's inspector
 * links (issue 21). The inspector's own page is a route of its own (/inspect).
 */
export {
  StoreInspectorLinks,
  type StoreInspectorLinksProps,
} from './components/inspector-links-section';
