/**
 * What the elements feature offers other features' screens: the Elements tab of the
 * database and store screens.
 */
export { ElementList, type ElementListProps } from './components/element-list';
