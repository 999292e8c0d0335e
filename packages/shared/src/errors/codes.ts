/**
 * Every error code the API answers with, and the HTTP status it maps to.
 * The web app translates the code; `defaultMessages` is the English text
 * the server sends alongside (spec wording where the spec gives one).
 */
export const errorStatus = {
  'validation/invalid-input': 400,
  'auth/unauthenticated': 401,
  'auth/invalid-credentials': 401,
  'auth/invalid-token': 401,
  'auth/account-inactive': 403,
  'auth/too-many-attempts': 429,
  'auth/weak-password': 400,
  'auth/requires-recent-login': 401,
  'auth/passwords-do-not-match': 400,
  'auth/password-required': 400,
  'auth/email-already-in-use': 409,
  'auth/reset-link-invalid': 400,
  'auth/invalid-email': 400,
  'auth/csrf': 403,
  'account/select-role': 400,
  'account/select-distributor': 400,
  'account/select-store': 400,
  'account/select-database': 400,
  'account/password-mismatch': 400,
  'account/fill-all-fields': 400,
  'account/too-many-stores': 409,
  'permission/denied': 403,
  'not-found': 404,
  'conflict/stale-version': 409,
  'file/too-large': 413,
  'file/unsupported-type': 415,
  'rate-limit': 429,
  'form.store.invalid.exists': 409,
  'store/distributor-required': 400,
  'invalid-database': 400,
  'database/distributor-already-set': 409,
  'manager/not-eligible': 409,
  'licence/monitoring-failed': 502,
  'device/limit-reached': 409,
  'device/invalid-pairing-key': 404,
  'sensor/invalid-credentials': 400,
  'sensor/sticker-locked': 409,
  'date-range-too-long': 400,
  'element/invalid-name': 400,
  'invalid-temperature-input': 400,
  'element/select-type': 400,
  'element/unknown-type': 400,
  'element/unknown-origin': 400,
  'element/already-overridden': 409,
  'element/field-locked': 403,
  'element-type/invalid-name': 400,
  'label/invalid-name': 400,
  'label/unknown-label': 400,
  'freeform-line-limit': 400,
  'attachment/unknown-attachment': 400,
  'stock-images/not-configured': 503,
  'stock-images/failed': 502,
  internal: 500,
} as const;

export type ErrorCode = keyof typeof errorStatus;

export const defaultMessages: Record<ErrorCode, string> = {
  'validation/invalid-input': 'The request is not valid.',
  'auth/unauthenticated': 'You must be signed in.',
  'auth/invalid-credentials': 'Adresse email ou mot de passe incorrect.',
  'auth/invalid-token': 'Unable to authentificate using Mise token.',
  'auth/account-inactive': 'This account is disabled.',
  'auth/too-many-attempts': 'Too many attempts. Please try again later.',
  'auth/weak-password':
    'Votre mot de passe est trop faible. Veuillez choisir un mot de passe plus sécurisé.',
  'auth/requires-recent-login':
    'Il y a trop de temps entre votre connexion et votre tentative de changement de mot de passe. Vous allez être deconnecté.',
  'auth/passwords-do-not-match': 'Les deux mot de passes ne correspondent pas.',
  'auth/password-required': 'Veuillez renseigner une valeur pour le mot de passe.',
  'auth/email-already-in-use': 'An account already exists for this e-mail address.',
  'auth/reset-link-invalid': 'This password reset link is invalid or has expired.',
  'auth/invalid-email': 'Unable to send a recovery message. Please specify a valid mail address.',
  'auth/csrf': 'The request could not be verified. Reload the page and try again.',
  'account/select-role': 'Select a role.',
  'account/select-distributor': 'Select a distributor.',
  'account/select-store': 'Select a store.',
  'account/select-database': 'Select a database.',
  'account/password-mismatch': 'The password do not match.',
  'account/fill-all-fields': 'Please fill all fields.',
  'account/too-many-stores': 'A user cannot own more than 30 stores.',
  'permission/denied': 'You do not have permission to execute this action.',
  'not-found': 'Not found.',
  'conflict/stale-version':
    'This record was changed by someone else. Reload it before saving again.',
  'file/too-large': 'The file is too large.',
  'file/unsupported-type': 'This type of file is not accepted.',
  'rate-limit': 'Too many requests. Please slow down.',
  'form.store.invalid.exists': 'A store with this name or this address already exists.',
  'store/distributor-required': 'Select a distributor.',
  'invalid-database': 'Select a database that belongs to a distributor.',
  'database/distributor-already-set':
    'The distributor of a database is set once and cannot change.',
  'manager/not-eligible': 'Only an active manager account can manage a database.',
  'licence/monitoring-failed':
    'Impossible de mettre a jour la licence sur le serveur Mise. Veuillez reessayer plus tard.',
  'device/limit-reached': 'This store has reached its maximum number of devices.',
  'device/invalid-pairing-key': 'This pairing key does not match any store.',
  'sensor/invalid-credentials': 'Identifiants Koovea incorrects.',
  'sensor/sticker-locked': 'The hub of this store is already set and cannot change.',
  'date-range-too-long': 'The date range is too long.',
  'element/invalid-name': 'Veuillez specifier un nom valide.',
  'invalid-temperature-input':
    'The minimum temperature must not be higher than the maximum temperature.',
  'element/select-type': "Veuillez selectionner un type d'élement.",
  'element/unknown-type': 'This element type does not exist here.',
  'element/unknown-origin': 'This database element does not belong to the database of the store.',
  'element/already-overridden': 'This store already has its own version of this element.',
  'element/field-locked': 'This field is locked by the database and cannot be changed here.',
  'element-type/invalid-name': 'Please enter a name for the element type.',
  'label/invalid-name': 'Please enter a name for the label.',
  'label/unknown-label': 'This label does not belong to the element.',
  'freeform-line-limit': 'The text must have fewer than 5 lines and at most 200 characters.',
  'attachment/unknown-attachment': 'This attachment does not belong to the element.',
  'stock-images/not-configured': 'No stock image provider is configured.',
  'stock-images/failed': 'The stock image provider could not be reached.',
  internal: 'An error occured.',
};

export type ApiErrorBody = {
  error: {
    code: ErrorCode;
    message: string;
    issues?: { path: string; message: string }[];
  };
};
