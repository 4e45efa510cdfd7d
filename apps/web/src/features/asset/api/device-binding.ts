// POST /api/iot/v2/devices/:id/bind (`{ assetId }`; a bound device moves, ending its binding)
// and POST /api/iot/v2/devices/:id/unbind. Device and asset lists and histories change with them.
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { ASSET_API, type BindingRow } from '@iotc/shared/asset';
import { request } from '../../../api/client.ts';
import { BINDINGS_KEY } from './bindings.ts';
import { DEVICE_DETAIL_KEY } from './device-detail.ts';

export function bindDevice({ id, assetId }: { id: string; assetId: string }): Promise<BindingRow> {
  return request<BindingRow>(ASSET_API.deviceBind(encodeURIComponent(id)), { method: 'POST', body: { assetId }, silent: true });
}

export function unbindDevice(id: string): Promise<BindingRow> {
  return request<BindingRow>(ASSET_API.deviceUnbind(encodeURIComponent(id)), { method: 'POST', silent: true });
}

function useInvalidateBindings() {
  const client = useQueryClient();
  // Every list: the devices list shows the bound asset, every asset list its bound devices.
  return () =>
    Promise.all([
      client.invalidateQueries({ queryKey: ['list'] }),
      client.invalidateQueries({ queryKey: BINDINGS_KEY }),
      client.invalidateQueries({ queryKey: DEVICE_DETAIL_KEY }),
    ]);
}

export function useBindDevice() {
  const onSuccess = useInvalidateBindings();
  return useMutation({ mutationFn: bindDevice, onSuccess });
}

export function useUnbindDevice() {
  const onSuccess = useInvalidateBindings();
  return useMutation({ mutationFn: unbindDevice, onSuccess });
}
