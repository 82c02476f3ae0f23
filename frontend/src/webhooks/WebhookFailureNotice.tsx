import { Link, useLocation } from 'react-router';
import { useWebhooks } from '../api/webhooks';
import { paths, routes } from '../routes';
import { Banner } from '../ui/components';
import { disabledByFailure } from './webhooks';

/** Owners, on every page: an endpoint CareVault turned off after a day of failed deliveries
 * (the notice is here, not in an email). The Webhooks page shows its own. */
export function WebhookFailureNotice({ owner }: { owner: boolean }) {
  const webhooks = useWebhooks(owner);
  const location = useLocation();
  const failing = disabledByFailure(webhooks.data);
  if (!owner || failing.length === 0 || location.pathname === paths.webhooks) return null;
  return (
    <Banner tone="warning" title="Webhook deliveries stopped">
      <p>
        {failing.length === 1
          ? 'One webhook endpoint was turned off after every delivery to it failed for a day.'
          : `${failing.length} webhook endpoints were turned off after every delivery to them failed for a day.`}{' '}
        <Link to={routes.webhooks()}>Review webhooks</Link>
      </p>
    </Banner>
  );
}
