// The scenario's settings → its target plan: where to connect, as whom, with which TLS files and switches;
// contradicting TLS settings are reported here. src/redis/target.ts turns the plan into a connection.
import type { DiagnosticSink } from './diagnostics';
import type { TargetPlan, TlsPlan } from './plan';
import type { Layer } from './settingLayer';

export function targetPlan(layer: Layer, sink: DiagnosticSink): TargetPlan {
  const target: TargetPlan = {
    cluster: layer.get('cluster')?.value ?? false,
    resp: layer.get('resp')?.value ?? 2,
    client: layer.get('client')?.value ?? 'fast',
    connectTimeoutMs: layer.get('connect-timeout')?.value ?? 5000,
  };
  const where = layer.get('target')?.value;
  if (where?.url) target.url = where.url;
  if (where?.profile) target.profile = where.profile;
  const user = layer.get('user');
  if (user) target.user = user.value;
  const password = layer.get('password')?.value;
  if (password?.env) target.passwordEnv = password.env;
  if (password?.secret) target.passwordSecret = true;
  const sentinelUser = layer.get('sentinel-user');
  if (sentinelUser) target.sentinelUser = sentinelUser.value;
  const sentinelPassword = layer.get('sentinel-password')?.value;
  if (sentinelPassword?.env) target.sentinelPasswordEnv = sentinelPassword.env;
  if (sentinelPassword?.secret) target.sentinelPasswordSecret = true;
  const db = layer.get('db');
  if (db) target.db = db.value;
  if (layer.get('replica-reads')?.value) target.replicaReads = true;

  const tlsSwitch = layer.get('tls');
  const files = { ca: layer.get('tls-ca'), cert: layer.get('tls-cert'), key: layer.get('tls-key') };
  const servername = layer.get('tls-servername');
  const insecure = layer.get('tls-insecure');
  const rediss = /^rediss(-sentinel)?:\/\//i.test(target.url ?? '');
  if (tlsSwitch?.value === false && rediss) {
    sink.error(tlsSwitch.range, 'tls-conflict', '`tls off` contradicts the `rediss://` target — use a `redis://` URL, or remove `tls off`');
  }
  const anyTlsSetting = Boolean(tlsSwitch || files.ca || files.cert || files.key || servername || insecure);
  if (anyTlsSetting) {
    const tls: TlsPlan = { enabled: tlsSwitch?.value ?? true };
    if (files.ca) tls.ca = files.ca.value;
    if (files.cert) tls.cert = files.cert.value;
    if (files.key) tls.key = files.key.value;
    if (servername) tls.servername = servername.value;
    if (insecure) tls.insecure = insecure.value;
    if (!tls.enabled) {
      for (const [name, entry] of Object.entries({
        'tls-ca': files.ca,
        'tls-cert': files.cert,
        'tls-key': files.key,
        'tls-servername': servername,
        'tls-insecure': insecure,
      })) {
        if (entry) sink.warning(entry.range, 'tls-off', `\`${name}\` has no effect with \`tls off\` — remove it, or turn TLS on`);
      }
    }
    if (Boolean(files.cert) !== Boolean(files.key)) {
      const present = (files.cert ?? files.key)!;
      sink.error(present.range, 'tls-client-pair', 'a client certificate needs both `tls-cert` and `tls-key` — add the other one');
    }
    target.tls = tls;
  }
  return target;
}
