import { Badge, Group, Radio, SimpleGrid, Text } from '@mantine/core';
import type { ServerInstance } from '@mise/shared/operations/schemas';
import { useTranslation } from 'react-i18next';
import { formatDateTimeWithSeconds } from '../../../shared/format/date';

type ServerInstancesProps = {
  instances: ServerInstance[];
  value: string | null;
  onChange: (instanceId: string) => void;
};

/**
 * "The server" (spec 002 §2): the instances that reported a heartbeat in the last day, live ones
 * first, as radio cards; the one chosen is the one the tabs show.
 */
export function ServerInstances({ instances, value, onChange }: ServerInstancesProps) {
  const { t } = useTranslation();
  return (
    <Radio.Group
      value={value}
      onChange={onChange}
      label={t('technical.server.instances')}
      data-testid="technical-instances"
    >
      <SimpleGrid cols={{ base: 1, sm: 2, lg: 3 }} spacing="sm" mt="xs">
        {instances.map((instance) => (
          <Radio.Card
            key={instance.id}
            value={instance.id}
            radius="md"
            p="sm"
            data-testid="technical-instance"
            data-instance-id={instance.id}
          >
            <Group wrap="nowrap" align="flex-start" gap="sm">
              <Radio.Indicator mt={2} />
              <Text component="span" display="block" size="sm" style={{ minWidth: 0 }}>
                <Group component="span" gap={6} wrap="wrap">
                  <Text component="span" fw={600} style={{ overflowWrap: 'anywhere' }}>
                    {instance.host}
                  </Text>
                  {instance.is_current ? (
                    <Badge component="span" size="xs" variant="light" color="blue">
                      {t('technical.server.current')}
                    </Badge>
                  ) : null}
                  <Badge
                    component="span"
                    size="xs"
                    variant="light"
                    color={instance.is_live ? 'teal' : 'gray'}
                  >
                    {t(instance.is_live ? 'technical.server.live' : 'technical.server.stopped')}
                  </Badge>
                </Group>
                <Text component="span" display="block" size="xs" c="dimmed" mt={4}>
                  {t('technical.server.version')} {instance.version} · {t('technical.server.pid')}{' '}
                  {instance.pid}
                </Text>
                <Text component="span" display="block" size="xs" c="dimmed">
                  {t('technical.server.started')} {formatDateTimeWithSeconds(instance.started_at)}
                </Text>
                <Text component="span" display="block" size="xs" c="dimmed">
                  {t('technical.server.lastHeartbeat')}{' '}
                  {formatDateTimeWithSeconds(instance.last_seen_at)}
                </Text>
              </Text>
            </Group>
          </Radio.Card>
        ))}
      </SimpleGrid>
    </Radio.Group>
  );
}
