import { PasswordInput } from '@mantine/core';

type NewPasswordFieldsProps = {
  passwordLabel: string;
  confirmationLabel: string;
  password: string;
  confirmation: string;
  onPasswordChange: (value: string) => void;
  onConfirmationChange: (value: string) => void;
  /** Test ids: `<prefix>-password`, `<prefix>-confirmation`. */
  testIdPrefix: string;
};

/** A new password and its confirmation: the forced change and the reset page. */
export function NewPasswordFields({
  passwordLabel,
  confirmationLabel,
  password,
  confirmation,
  onPasswordChange,
  onConfirmationChange,
  testIdPrefix,
}: NewPasswordFieldsProps) {
  return (
    <>
      <PasswordInput
        label={passwordLabel}
        autoComplete="new-password"
        value={password}
        onChange={(event) => onPasswordChange(event.currentTarget.value)}
        data-testid={`${testIdPrefix}-password`}
        data-autofocus
      />
      <PasswordInput
        label={confirmationLabel}
        autoComplete="new-password"
        value={confirmation}
        onChange={(event) => onConfirmationChange(event.currentTarget.value)}
        data-testid={`${testIdPrefix}-confirmation`}
      />
    </>
  );
}
