/**
 * What the shop feature offers other features' screens: the Shop tab of the database screen
 * and the Shop tab of the store screen (a store's order from the back-office).
 */
export {
  DatabaseShopEditor,
  type DatabaseShopEditorProps,
} from './components/database-shop-editor';
export { StoreShopTab, type StoreShopTabProps } from './components/store-shop-tab';
