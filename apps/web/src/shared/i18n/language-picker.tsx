import { Select } from '@mantine/core';
import { IconLanguage } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
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

export function LanguagePicker({ size = 'xs' }: LanguagePickerProps) {
  const { t, i18n } = useTranslation();
  const value = isLanguage(i18n.resolvedLanguage) ? i18n.resolvedLanguage : currentLanguage();

  function handleChange(language: Language | null) {
    if (language) void changeLanguage(language);
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
