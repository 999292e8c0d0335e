/** What the shop feature offers other features' screens: the Shop tab of the database screen. */
export {
  DatabaseShopEditor,
  type DatabaseShopEditorProps,
} from './components/database-shop-editor';
