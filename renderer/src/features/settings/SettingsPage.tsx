import { ProfilesSection } from './ProfilesSection.tsx';
import { PreferencesSection } from './PreferencesSection.tsx';
import { VaultSection } from './VaultSection.tsx';
import { TeamSection } from './TeamSection.tsx';
import { RehearsalSection } from './RehearsalSection.tsx';

export default function SettingsPage() {
  return (
    <section className="page">
      <header className="page-header">
        <h1 tabIndex={-1}>Settings</h1>
      </header>
      <ProfilesSection />
      <VaultSection />
      <PreferencesSection />
      <TeamSection />
      <RehearsalSection />
    </section>
  );
}
