import { Select } from '@mantine/core';
import { IconLanguage } from '@tabler/icons-react';
import { useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { apiRequest } from '../api/api-client';
import { meQueryKey } from '../auth/get-me';
import {
  changeLanguage,
  currentLanguage,
  isLanguage,
  type Language,
  languageNames,
  languages,
} from './i18n';

const options = languages.map((language) => ({ value: language, label: languageNames[language] }));

type LanguagePickerProps = {
  size?: 'xs' | 'sm' | 'md';
};

/**
 * PUT /api/me/language: the language the signed-in user's e-mails and push notifications
 * speak. Best effort: the screen has already changed, a failure only leaves them in the
 * previous one until the next change.
 */
async function saveUserLanguage(language: Language): Promise<void> {
  try {
    await apiRequest<void>('/me/language', { method: 'PUT', body: { language } });
  } catch {
    // Not worth a toast over a screen that already speaks the new language.
  }
}

export function LanguagePicker({ size = 'xs' }: LanguagePickerProps) {
  const { t, i18n } = useTranslation();
  const queryClient = useQueryClient();
  const value = isLanguage(i18n.resolvedLanguage) ? i18n.resolvedLanguage : currentLanguage();

  function handleChange(language: Language | null) {
    if (!language) return;
    void changeLanguage(language);
    if (queryClient.getQueryData(meQueryKey)) void saveUserLanguage(language);
  }

  return (
    <Select<Language>
      data={options}
      value={value}
      onChange={handleChange}
      allowDeselect={false}
      size={size}
      w={130}
      leftSection={<IconLanguage size={16} />}
      aria-label={t('language.label')}
      data-testid="language-picker"
      comboboxProps={{ withinPortal: true }}
    />
  );
}
