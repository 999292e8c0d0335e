import { ActionIcon, Button, Card, Group, SimpleGrid, Stack, Text, TextInput } from '@mantine/core';
import type { Distributor } from '@mise/shared/organisation/schemas';
import { IconPlus, IconTrash } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';

export type Contact = Distributor['contacts'][number];

type ContactsEditorProps = {
  contacts: Contact[];
  onChange: (contacts: Contact[]) => void;
  isDisabled: boolean;
};

const emptyContact: Contact = { name: '', role: '', email: '', phone: '' };

/** The distributor's contacts: name, role, e-mail and phone each, added and removed in place. */
export function ContactsEditor({ contacts, onChange, isDisabled }: ContactsEditorProps) {
  const { t } = useTranslation();

  function update(index: number, patch: Partial<Contact>) {
    onChange(
      contacts.map((contact, position) =>
        position === index ? { ...contact, ...patch } : contact,
      ),
    );
  }

  return (
    <Stack gap="sm" data-testid="distributor-contacts">
      {contacts.length === 0 ? (
        <Text size="sm" c="dimmed">
          {t('distributor.noContacts')}
        </Text>
      ) : null}
      {contacts.map((contact, index) => (
        // Contacts have no id; their position is their identity while editing.
        // biome-ignore lint/suspicious/noArrayIndexKey: see above
        <Card key={index} withBorder padding="sm" data-testid="distributor-contact">
          <Group align="flex-end" wrap="nowrap">
            <SimpleGrid cols={{ base: 1, sm: 4 }} spacing="xs" style={{ flex: 1 }}>
              <TextInput
                label={t('fields.name')}
                value={contact.name}
                onChange={(event) => update(index, { name: event.currentTarget.value })}
                disabled={isDisabled}
              />
              <TextInput
                label={t('distributor.contactRole')}
                value={contact.role}
                onChange={(event) => update(index, { role: event.currentTarget.value })}
                disabled={isDisabled}
              />
              <TextInput
                label={t('fields.email')}
                value={contact.email}
                onChange={(event) => update(index, { email: event.currentTarget.value })}
                disabled={isDisabled}
              />
              <TextInput
                label={t('fields.phone')}
                value={contact.phone}
                onChange={(event) => update(index, { phone: event.currentTarget.value })}
                disabled={isDisabled}
              />
            </SimpleGrid>
            <ActionIcon
              variant="subtle"
              color="red"
              onClick={() => onChange(contacts.filter((_, position) => position !== index))}
              disabled={isDisabled}
              aria-label={t('common.remove')}
              mb={4}
            >
              <IconTrash size={16} />
            </ActionIcon>
          </Group>
        </Card>
      ))}
      {isDisabled ? null : (
        <Group>
          <Button
            variant="light"
            size="xs"
            leftSection={<IconPlus size={14} />}
            onClick={() => onChange([...contacts, emptyContact])}
            data-testid="distributor-add-contact"
          >
            {t('distributor.addContact')}
          </Button>
        </Group>
      )}
    </Stack>
  );
}
