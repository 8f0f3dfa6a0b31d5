//! The French rules summary: the same content as the English one ([`super::en`]), generated from
//! the same knobs so that it is true for custom rulesets too, in the words of the French edition
//! of the rules (pari, pli, atout, meneur, couleur appelée, panier, écart, Pantin). A knob that
//! changes the English summary changes this one too.

use std::fmt::Write;

use crate::ruleset::{AfterLastAttempt, DeckStyle, DummyFollower, EndRule, LeaderRule, Preset, Ruleset, Scoring};

fn title(p: Preset) -> &'static str {
    match p {
        Preset::En => "Oh 7 ? (édition anglaise)",
        Preset::Fr => "Oh 7 ? (édition française, jeu de base)",
        Preset::FrAdvanced => "Oh 7 ? (édition française, jeu avancé)",
        Preset::Kod7 => "Kod-7",
        Preset::Bga => "Oh-Seven (règles en ligne)",
    }
}

/// The French summary of `r`.
pub fn summary(r: &Ruleset) -> String {
    let mut s = String::new();
    let fifth = r.fifth_symbol();
    let mark = r.mark_symbol();
    let _ = writeln!(s, "{} — règles `{}`", title(r.preset), r.preset);
    let _ = writeln!(s);
    let _ = writeln!(s, "Paquet (7 cartes à chaque joueur ; le reste forme l'écart, ni utilisé ni regardé) :");
    for n in r.min_players as usize..=r.max_players as usize {
        let deck = r.deck(n);
        let suits: String = r.suits(n).iter().map(|x| x.symbol(fifth)).collect();
        let specials: Vec<String> = deck.iter().filter(|c| !c.is_regular()).map(|c| c.pretty(fifth, mark)).collect();
        let copies = if r.copies(n) == 2 { ", deux exemplaires de chaque" } else { "" };
        let extra = if specials.is_empty() { String::new() } else { format!(" + {}", specials.join(" ")) };
        let who = if r.uses_dummy(n) { "2 joueurs + le Pantin".to_string() } else { format!("{n} joueurs") };
        let _ = writeln!(s, "  {who:>22} : {suits} 0-7{copies}{extra} ({} cartes)", deck.len());
    }
    let _ = writeln!(s);
    if r.passing {
        let _ = writeln!(s, "Passe : avant les paris, selon la manche : 1 aucune, 2 une à gauche, 3 deux à droite,");
        let _ = writeln!(s, "  4 trois à gauche, 5 deux à droite, 6 une à gauche, 7 aucune (gauche = place suivante");
        let _ = writeln!(s, "  dans le sens horaire).");
    }
    let _ = writeln!(s, "Paris : chacun choisit une carte en secret ; toutes sont dévoilées ensemble ; sa valeur");
    let _ = writeln!(s, "  est le nombre exact de plis que l'on s'engage à remporter. Les cartes pariées");
    let _ = writeln!(s, "  retournent dans les mains et restent publiques.");
    if r.deck == DeckStyle::Advanced || r.deck == DeckStyle::Kod7 {
        let _ = writeln!(
            s,
            "  ★n parie n{} ; {mark} ne peut jamais servir à parier.",
            if r.deck == DeckStyle::Advanced { ", Ø parie 0" } else { "" }
        );
    }
    let _ = write!(
        s,
        "  Si les paris font 7{}, chacun reparie avec une autre carte",
        if r.dummy { " (les 2 du Pantin compris)" } else { "" }
    );
    match (r.bet_attempts, r.after_last_attempt) {
        (Some(n), AfterLastAttempt::Redeal) => {
            let _ = writeln!(s, " ;\n  après {n} tentatives faisant 7, la manche est redistribuée.");
        }
        (Some(n), AfterLastAttempt::Stands) => {
            let _ = writeln!(s, " ;\n  la tentative {n} compte même si elle fait 7.");
        }
        (None, _) => {
            let _ = writeln!(s, ",\n  tant que chacun a une carte inutilisée (sinon la manche est redistribuée).");
        }
    }
    if r.rebid_bonus {
        let _ = writeln!(s, "  Chaque fois que les paris font 7, le plus fort pari marque aussitôt 1 point.");
    }
    let _ = writeln!(s);
    let _ = writeln!(s, "Premier meneur et atout :");
    match r.leader {
        LeaderRule::HighestBet => {
            let _ = writeln!(s, "  le plus fort pari mène et sa couleur est l'atout ; égalité : priorité des couleurs");
            let _ = writeln!(s, "  ♠ > ♥ > ♣ > ♦ > {fifth}.");
            if r.decks == 2 || r.preset == Preset::Bga {
                let _ = writeln!(
                    s,
                    "  Avec deux paquets, un plus fort pari fait par deux cartes identiques oblige à parier"
                );
                let _ = writeln!(s, "  de nouveau.");
            }
        }
        LeaderRule::Exclarrogatif => {
            let _ = writeln!(s, "  le plus fort pari ordinaire mène (★ et Ø sont ignorés) ; sa couleur est l'atout.");
            let _ =
                writeln!(s, "  Entre égalitaires, qui détient ? peut le dévoiler pour remporter l'égalité ; sinon,");
            let _ =
                writeln!(s, "  priorité des couleurs. Si tous les paris sont ★ ou Ø, le plus fort ★ mène et choisit");
            let _ = writeln!(s, "  l'atout.");
        }
        LeaderRule::Interrobang => {
            let _ =
                writeln!(s, "  la plus forte estimation non ★ mène ; sa couleur est la couleur d'exception (l'atout).");
            let _ =
                writeln!(s, "  En cas d'égalité, qui détient ‽ le dévoile et choisit le meneur parmi les égalitaires");
            let _ =
                writeln!(s, "  (tirage au sort si personne ne l'a). Si toutes les estimations sont ★, la plus forte ★");
            let _ = writeln!(
                s,
                "  mène et choisit la couleur d'exception ; les égalitaires annoncent d'abord une couleur,"
            );
            let _ = writeln!(s, "  puis ‽ (ou le sort) choisit.");
        }
    }
    let _ = writeln!(s);
    let _ = writeln!(s, "Plis : 7 par manche. Fournissez la couleur appelée si vous le pouvez ; sinon, jouez");
    let _ = writeln!(s, "  n'importe quelle carte.");
    if r.deck(r.max_players as usize).iter().any(|c| !c.is_regular()) {
        let _ = writeln!(s, "  Les cartes spéciales se jouent toujours. ★ compte comme la couleur appelée (sous une");
        let _ = writeln!(s, "  carte ordinaire de même valeur) et comme un atout quand l'atout est appelé. {mark} bat");
        let _ = writeln!(s, "  tout sauf les atouts.");
        if r.deck == DeckStyle::Advanced {
            let _ = writeln!(s, "  Ø ne remporte jamais de pli.");
        }
    }
    let _ = writeln!(s, "  Le plus fort atout l'emporte, sinon la plus forte carte de la couleur appelée ; cartes");
    let _ = writeln!(s, "  identiques : la première jouée.");
    let _ = writeln!(s);
    let _ = writeln!(s, "Scores (perte = |pari - plis remportés|) :");
    match r.scoring {
        Scoring::Basket => {
            let _ = writeln!(s, "  pari échoué : -perte ; pari réussi : 2 + panier + plis remportés ;");
            let _ = writeln!(s, "  panier = les pertes de ceux qui ont échoué.");
        }
        Scoring::DoubleBasket => {
            let _ = writeln!(s, "  pari échoué : panier - perte ; pari réussi : 2 x panier + 2 + plis remportés");
            let _ = writeln!(s, "  (réussi avec Ø : sans les 2 points) ; panier = la somme de toutes les pertes.");
        }
        Scoring::BidPlusTwo => {
            let _ = writeln!(s, "  pari échoué : -perte ; pari réussi : pari + 2.");
        }
    }
    let _ = writeln!(s);
    let _ = write!(s, "Fin : ");
    match r.end {
        EndRule::MinRounds => {
            let _ = writeln!(s, "au moins {} manches ; ensuite, le meilleur score, s'il est seul, gagne", r.rounds);
            let _ = writeln!(s, "  si son dernier pari est réussi.");
            if r.every_tie_replays {
                let _ = writeln!(s, "  Toute égalité pour le meilleur score fait jouer une manche de plus.");
            } else {
                let _ = writeln!(
                    s,
                    "  Égalité : une manche de plus si un égalitaire a échoué ; sinon le plus de paris réussis,"
                );
                let _ = writeln!(s, "  puis victoire partagée.");
            }
        }
        EndRule::MinRoundsStrict => {
            let _ =
                writeln!(s, "au moins {} manches ; le gagnant doit avoir réussi son dernier pari et avoir", r.rounds);
            let _ = writeln!(s, "  strictement le meilleur score ; toute égalité fait jouer une manche de plus.");
        }
        EndRule::Target => {
            let _ = writeln!(
                s,
                "le premier à atteindre {} points à la fin d'une manche où son pari est réussi.",
                r.target.unwrap_or(35)
            );
            let _ = writeln!(s, "  Plusieurs à la fois : le plus de paris réussis, puis le plus de points,");
            let _ = writeln!(s, "  puis victoire partagée.");
        }
        EndRule::FixedRounds => {
            let _ = writeln!(
                s,
                "exactement {} manches ; le meilleur score gagne ; égalité : le plus de paris réussis,",
                r.rounds
            );
            let _ = writeln!(s, "  puis victoire partagée.");
        }
    }
    if r.dummy {
        let _ = writeln!(s);
        let _ =
            writeln!(s, "Deux joueurs : le Pantin s'assied après eux, parie toujours 2, n'est jamais premier meneur");
        let _ =
            writeln!(s, "  et joue en dernier parmi ses cartes visibles (2 retournées après les paris, une de plus");
        let _ =
            writeln!(s, "  à chaque fois), en visant exactement 2 plis. S'il a remporté le pli précédent, il ouvre");
        let _ = writeln!(
            s,
            "  avec la carte du dessus de sa pioche, suivi {}.\n  Il ne marque pas de points.",
            match r.dummy_follower {
                DummyFollower::FirstLeader => "du premier meneur de la manche",
                DummyFollower::PreviousLeader => "du meneur du pli précédent",
            }
        );
    }
    s
}

/// The French summary of Seven (`rules/seven.md`).
pub fn seven_summary() -> String {
    "Seven — le jeu où l'on se défausse de ses cartes (2 à 8 joueurs)

Cartes : deux jeux de 52 cartes (104 cartes). Chacun en reçoit 8 ; le reste forme la pioche,
  dont la carte du dessus, retournée, commence le talon (son effet ne s'applique pas).
Tour : jouez un 8 ou une carte de la couleur demandée ou de la valeur de la carte du dessus.
  Si vous ne pouvez pas jouer, piochez une carte (cela termine votre tour).
Cartes spéciales :
  2   le joueur suivant joue un 2 ou pioche 2 x (nombre de 2 d'affilée) ;
  A♠  le joueur suivant joue un A♠ ou pioche 5 x (nombre d'A♠ d'affilée) ;
  7   les suivants ne peuvent que jouer un 7 ou passer ; quand le tour revient au dernier
      joueur d'un 7, il joue n'importe quelle carte ;
  8   joker : annoncez la nouvelle couleur demandée (pas quand un 2, A♠ ou 7 est en cours) ;
  10  inverse le sens du jeu ;   J (valet)  le joueur suivant passe son tour.
Dernière carte : annoncez-la en jouant votre avant-dernière carte. Sinon, tous les autres
  répondent en même temps s'ils vous dénoncent ; si l'un d'eux le fait, vous piochez 4.
Fin de manche : qui n'a plus de carte gagne la manche ; les autres comptent leurs cartes :
  2-7, 9, 10 leur valeur ; J, Q, K, A (valet, dame, roi, as) 10 ; A♠ 15 ; 8 zéro.
Fin de partie : au-dessus de 150, on est éliminé ; à exactement 150, on revient à 0 ;
  le dernier joueur en jeu gagne.
"
    .to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn follows_the_knobs() {
        let en = Ruleset::preset(Preset::En);
        let fr = Ruleset::preset(Preset::Fr);
        assert!(!summary(&en).contains("Passe :"));
        assert!(summary(&Ruleset { passing: true, ..en }).contains("Passe :"));
        assert!(summary(&en).contains("Deux joueurs : le Pantin"));
        assert!(!summary(&Ruleset::preset(Preset::FrAdvanced)).contains("Pantin"));
        assert!(summary(&Ruleset { target: Some(21), ..fr }).contains("atteindre 21 points"));
        assert!(summary(&Ruleset { rounds: 9, ..en }).contains("au moins 9 manches"));
        assert!(summary(&Ruleset { every_tie_replays: true, ..en }).contains("Toute égalité"));
        assert!(summary(&Ruleset::preset(Preset::Kod7)).contains("la tentative 3 compte"));
        assert!(summary(&fr).contains("2 x panier"));
    }

    #[test]
    fn lines_fit_a_100_column_screen() {
        // The rules pop-up at 100 columns shows 94 characters a line.
        let texts = Preset::ALL.iter().map(|&p| summary(&Ruleset::preset(p))).chain([seven_summary()]);
        for text in texts {
            for line in text.lines() {
                assert!(line.chars().count() <= 92, "{} characters: {line}", line.chars().count());
            }
        }
    }
}
