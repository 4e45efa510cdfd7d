// POST /api/iot/v2/deliveries/:id/resend (alarm:handle): one more attempt now, whatever the
// delivery's status; its result is final. Answers the delivery with every attempt.
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { PUSH_API, type DeliveryDetail } from '@iotc/shared/alarm-push';
import { request } from '../../../api/client.ts';
import { DELIVERIES_KEY } from './deliveries.ts';
import { deliveryKey } from './delivery-detail.ts';

export function resendDelivery(id: string): Promise<DeliveryDetail> {
  return request<DeliveryDetail>(`${PUSH_API.deliveries}/${encodeURIComponent(id)}/resend`, { method: 'POST', silent: true });
}

export function useResendDelivery() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: resendDelivery,
    onSuccess: (detail) => {
      client.setQueryData(deliveryKey(detail.id), detail);
      return client.invalidateQueries({ queryKey: DELIVERIES_KEY });
    },
  });
}
