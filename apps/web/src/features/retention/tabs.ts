/** What the retention feature offers other features' screens: the Retention tab of the database screen. */
export { RetentionEditor, type RetentionEditorProps } from './components/retention-editor';
