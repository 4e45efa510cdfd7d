// DELETE /api/iot/v2/devices/:id: the device with its readings; its binding history is kept.
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { DEVICE_API } from '@iotc/shared/device';
import { request } from '../../../api/client.ts';
import { DEVICES_LIST_KEY } from './devices.ts';

export function deleteDevice(id: string): Promise<unknown> {
  return request(`${DEVICE_API.devices}/${encodeURIComponent(id)}`, { method: 'DELETE', silent: true });
}

export function useDeleteDevice() {
  const client = useQueryClient();
  // Asset lists show their bound devices.
  return useMutation({
    mutationFn: deleteDevice,
    onSuccess: () => Promise.all([client.invalidateQueries({ queryKey: DEVICES_LIST_KEY }), client.invalidateQueries({ queryKey: ['list'] })]),
  });
}
