// DELETE /api/iot/v2/devices/:id: the device with its readings; its binding history is kept.
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { DEVICE_API } from '@iotc/shared/device';
import { request } from '../../../api/client.ts';

export function deleteDevice(id: string): Promise<unknown> {
  return request(`${DEVICE_API.devices}/${encodeURIComponent(id)}`, { method: 'DELETE', silent: true });
}

export function useDeleteDevice() {
  const client = useQueryClient();
  // Every list, the devices' own among them: asset lists show their bound devices.
  return useMutation({
    mutationFn: deleteDevice,
    onSuccess: () => client.invalidateQueries({ queryKey: ['list'] }),
  });
}
