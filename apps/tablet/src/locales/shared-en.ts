/**
 * The back-office's texts the tablet shows too, under the same keys (error codes, module
 * names, label types, allergens): taken from the web app's locale at build time, only these
 * sections (Vite's JSON named exports; the rest of the file is left out of the bundle).
 */
export { allergenNames, errors, label, modules } from '../../../web/src/locales/en.json';
