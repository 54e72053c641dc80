import { providerError } from '../../errors/app-error.js';
import type { Clock } from '../../lib/clock.js';
import type { SecretBox } from '../../lib/secret-box.js';
import type { CheckProvider, CheckProviderName } from './check-provider.port.js';
import type { CheckProviderCredentialsRepository } from './check-provider-credentials-repository.port.js';

/** Which provider a company's GET /checks uses and why; never carries a key. */
export interface ProviderStatus {
  readonly company_id: string;
  readonly provider: CheckProviderName;
  /** `company`: its own Lob key; `global`: LOB_API_KEY; `none`: the embedded provider. */
  readonly key_source: 'company' | 'global' | 'none';
  readonly lob: {
    readonly configured: boolean;
    readonly key_last4: string | null;
    readonly updated_at: string | null;
  };
  readonly global_lob_key: boolean;
}

export interface CheckProviderSettings {
  setLobKey(companyId: string, apiKey: string): Promise<ProviderStatus>;
  /** True when the company had a key of its own. */
  removeLobKey(companyId: string): Promise<boolean>;
  status(companyId: string): Promise<ProviderStatus>;
  /** The provider for the company: its own Lob key, else LOB_API_KEY, else the embedded one. */
  providerFor(companyId: string): Promise<CheckProvider>;
}

export interface CheckProviderSettingsDeps {
  readonly credentials: CheckProviderCredentialsRepository;
  readonly secretBox: SecretBox;
  readonly clock: Clock;
  readonly globalLobKey: string | undefined;
  readonly local: CheckProvider;
  readonly lob: (apiKey: string) => CheckProvider;
}

const LOB = 'lob';

/** The ciphertext is bound to its company and provider, so a copied row does not decrypt. */
const secretContext = (companyId: string) => `check-provider:${LOB}:${companyId}`;

export function createCheckProviderSettings(deps: CheckProviderSettingsDeps): CheckProviderSettings {
  const { credentials, secretBox, clock, globalLobKey } = deps;

  const status = async (companyId: string): Promise<ProviderStatus> => {
    const stored = await credentials.find(companyId, LOB);
    const keySource = stored ? 'company' : globalLobKey ? 'global' : 'none';
    return {
      company_id: companyId,
      provider: keySource === 'none' ? 'local' : 'lob',
      key_source: keySource,
      lob: {
        configured: stored !== undefined,
        key_last4: stored?.keyLast4 ?? null,
        updated_at: stored?.updatedAt ?? null,
      },
      global_lob_key: globalLobKey !== undefined,
    };
  };

  return {
    async setLobKey(companyId, apiKey) {
      await credentials.put(companyId, LOB, {
        encryptedKey: secretBox.seal(apiKey, secretContext(companyId)),
        keyLast4: apiKey.slice(-4),
        at: clock.now().toISOString(),
      });
      return status(companyId);
    },
    removeLobKey: (companyId) => credentials.remove(companyId, LOB),
    status,
    async providerFor(companyId) {
      const stored = await credentials.find(companyId, LOB);
      if (stored) {
        let apiKey: string;
        try {
          apiKey = secretBox.open(stored.encryptedKey, secretContext(companyId));
        } catch (error) {
          throw providerError("the company's Lob key cannot be decrypted with the current WRS_ENCRYPTION_KEY; an operator must set it again", error);
        }
        return deps.lob(apiKey);
      }
      return globalLobKey ? deps.lob(globalLobKey) : deps.local;
    },
  };
}
