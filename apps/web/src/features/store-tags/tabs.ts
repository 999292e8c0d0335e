/** What the store-tags feature offers other features' screens: the Tags tab of the database screen. */
export { StoreTagsEditor, type StoreTagsEditorProps } from './components/store-tags-editor';
