/** The Alertmanager webhook body, version 4 (what Alertmanager itself posts to webhook receivers). */
export interface AlertmanagerAlert {
  status: 'firing' | 'resolved';
  labels: Record<string, string>;
  annotations: Record<string, string>;
  startsAt: string;
  endsAt: string;
  generatorURL: string;
  fingerprint: string;
}

export interface AlertmanagerBody {
  version: '4';
  groupKey: string;
  truncatedAlerts: number;
  status: 'firing' | 'resolved';
  receiver: string;
  groupLabels: Record<string, string>;
  commonLabels: Record<string, string>;
  commonAnnotations: Record<string, string>;
  externalURL: string;
  alerts: AlertmanagerAlert[];
}

/** Alertmanager's "not ended" time. */
const NO_END = '0001-01-01T00:00:00Z';

export function alertmanagerBody(
  alert: {
    status: 'firing' | 'resolved';
    labels: Record<string, string>;
    annotations: Record<string, string>;
    startsAt: Date;
    endsAt?: Date;
    fingerprint: string;
  },
  receiver: string,
  externalUrl: string,
): AlertmanagerBody {
  const alertname = alert.labels.alertname ?? '';
  return {
    version: '4',
    groupKey: `{}:{alertname=${JSON.stringify(alertname)}}`,
    truncatedAlerts: 0,
    status: alert.status,
    receiver,
    groupLabels: { alertname },
    commonLabels: alert.labels,
    commonAnnotations: alert.annotations,
    externalURL: externalUrl,
    alerts: [
      {
        status: alert.status,
        labels: alert.labels,
        annotations: alert.annotations,
        startsAt: alert.startsAt.toISOString(),
        endsAt: alert.endsAt ? alert.endsAt.toISOString() : NO_END,
        generatorURL: `${externalUrl}/alerts?state=${alert.status}`,
        fingerprint: alert.fingerprint,
      },
    ],
  };
}
