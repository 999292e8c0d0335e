import { useTranslation } from 'react-i18next';
import { QueryContent } from '../../../shared/ui/query-content';
import { useOwnShop } from '../api/get-distributor-shop';
import { DistributorShopScreen } from '../components/distributor-shop-screen';

/** /shop (spec 001 §2.10): the shop of the signed-in user's distributor. */
export function ShopPage() {
  const { t } = useTranslation();
  const query = useOwnShop();
  return (
    <QueryContent query={query} isEmpty={() => false} emptyTitle={t('shop.empty')}>
      {(shop) => <DistributorShopScreen shop={shop} />}
    </QueryContent>
  );
}
