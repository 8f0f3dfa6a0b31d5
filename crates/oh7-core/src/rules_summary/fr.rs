//! Le résumé des règles en français : des phrases sur ce que [`super::Ctx`] a lu des règles.

use super::{Ctx, FactWords, Section, Summary};
use crate::ruleset::{AfterLastAttempt, DummyFollower, EndRule, LeaderRule, Preset, Scoring};

fn title(p: Preset) -> &'static str {
    match p {
        Preset::En => "Oh 7 ? (édition anglaise)",
        Preset::Fr => "Oh 7 ? (édition française, jeu de base)",
        Preset::FrAdvanced => "Oh 7 ? (édition française, jeu avancé)",
        Preset::Kod7 => "Kod-7",
        Preset::Bga => "Oh-Seven (règles en ligne)",
    }
}

fn cap(w: &str) -> String {
    let mut c = w.chars();
    c.next().map(|f| f.to_uppercase().chain(c).collect()).unwrap_or_default()
}

fn plural(n: u32, one: &str, many: &str) -> String {
    format!("{n} {}", if n <= 1 { one } else { many })
}

pub(super) fn oh7(c: &Ctx) -> Summary {
    let r = c.r;
    let t = c.t;
    // Kod-7's estimation and bga's enchère are feminine; pari is masculine.
    let feminine = matches!(r.preset, Preset::Kod7 | Preset::Bga);
    let mut deck = vec!["Chacun reçoit 7 cartes ; le reste forme l'écart, ni utilisé ni regardé.".to_string()];
    for &n in &c.counts {
        let (suits, specials, len) = c.deck_of(n);
        let who = if r.uses_dummy(n) { "2 joueurs et le Pantin".to_string() } else { format!("{n} joueurs") };
        let copies = if r.copies(n) == 2 { ", deux exemplaires de chaque" } else { "" };
        let extra = if specials.is_empty() { String::new() } else { format!(", et {specials}") };
        deck.push(format!("{who} : {suits}, valeurs 0 à 7{copies}{extra} ({len} cartes)."));
    }

    let mut special = Vec::new();
    if c.stars {
        special.push("★n (étoile) : parie n ; se joue toujours ; compte comme la couleur appelée (sous une carte ordinaire de même valeur) et comme un atout quand l'atout est appelé.".to_string());
    }
    if c.void {
        special.push("Ø (vide) : parie 0 ; se joue toujours ; ne remporte jamais de pli.".to_string());
    }
    if let Some(m) = c.mark {
        special.push(format!(
            "{m} : ne peut jamais servir à parier ; se joue toujours ; bat tout sauf les atouts.{}",
            if r.leader == LeaderRule::Exclarrogatif {
                " Entre égalitaires pour le premier meneur, qui le détient peut le dévoiler pour remporter l'égalité."
            } else {
                " En cas d'égalité pour le premier meneur, qui le détient le dévoile et choisit le meneur."
            }
        ));
    }
    if let Some(f) = c.fifth {
        special.push(format!("{f} : la cinquième couleur, dernière dans la priorité des couleurs."));
    }
    if c.copies {
        special.push("′ : le deuxième exemplaire d'une carte identique ; de deux cartes identiques, la première jouée l'emporte.".to_string());
    }

    let mut round = Vec::new();
    if r.passing {
        round.push(format!("Passe : avant les {}, selon la manche : 1 aucune, 2 une à gauche, 3 deux à droite, 4 trois à gauche, 5 deux à droite, 6 une à gauche, 7 aucune (gauche = la place suivante dans le sens horaire). Vous voyez les cartes reçues après avoir donné les vôtres.", t.bets));
    }
    round.push(format!("{} : chacun choisit en secret une carte de sa main ; toutes sont dévoilées ensemble. Sa valeur est le nombre exact de plis que l'on s'engage à remporter. Les cartes retournent dans les mains et restent publiques.", cap(t.bets)));
    let dummy = if c.dummy { " (les 2 du Pantin compris)" } else { "" };
    round.push(match (r.bet_attempts, r.after_last_attempt) {
        (None, _) => format!("Si les {} font 7{dummy}, chacun reparie avec une autre carte, tant que chacun a une carte inutilisée (sinon la manche est redistribuée).", t.bets),
        (Some(n), AfterLastAttempt::Stands) => format!("Si les {} font 7{dummy}, chacun reparie avec une autre carte ; la tentative {n} compte même si elle fait 7.", t.bets),
        (Some(n), AfterLastAttempt::Redeal) => format!("Si les {} font 7{dummy}, chacun reparie avec une autre carte ; après {n} tentatives faisant 7, la manche est redistribuée.", t.bets),
    });
    if r.rebid_bonus {
        round.push("Chaque fois que les enchères font 7, la plus forte enchère marque aussitôt 1 point.".to_string());
    }
    round.push(match r.leader {
        LeaderRule::HighestBet => format!(
            "Premier meneur et {} : {} {} mène le premier pli ; égalité : priorité des couleurs {} ; sa couleur est l'{}.{}",
            t.trump,
            if feminine { "la plus forte" } else { "le plus fort" },
            t.bet,
            c.priority,
            t.trump,
            if c.two_decks() { " Avec deux paquets, une plus forte enchère faite par deux cartes identiques oblige à enchérir de nouveau." } else { "" }
        ),
        LeaderRule::Exclarrogatif => "Premier meneur et atout : le plus fort pari ordinaire mène (★ et Ø sont ignorés) ; sa couleur est l'atout. Entre égalitaires, qui détient ? peut le dévoiler pour remporter l'égalité ; sinon, priorité des couleurs. Si tous les paris sont ★ ou Ø, le plus fort ★ mène et choisit l'atout.".to_string(),
        LeaderRule::Interrobang => "Premier meneur et couleur d'exception : la plus forte estimation non ★ mène ; sa couleur est la couleur d'exception (l'atout). En cas d'égalité, qui détient ‽ le dévoile et choisit le meneur parmi les égalitaires (tirage au sort si personne ne l'a). Si toutes les estimations sont ★, la plus forte ★ mène et choisit la couleur d'exception ; les égalitaires annoncent d'abord une couleur.".to_string(),
    });
    let strongest = if t.trump == "atout" { "atout".to_string() } else { format!("de la {}", t.trump) };
    round.push(format!("Plis : 7 par manche. Fournissez la couleur appelée si vous le pouvez ; sinon, jouez n'importe quelle carte. Le plus fort {strongest} l'emporte, sinon la plus forte carte de la couleur appelée ; de cartes identiques, la première jouée."));
    if c.dummy {
        round.push(format!(
            "Deux joueurs : le Pantin s'assied après eux, parie toujours 2, n'est jamais premier meneur et joue en dernier parmi ses cartes visibles (2 retournées après les paris, une de plus à chaque fois), en visant exactement 2 plis. S'il a remporté le pli précédent, il ouvre avec la carte du dessus de sa pioche, suivi {}. Il ne marque pas de points.",
            match r.dummy_follower {
                DummyFollower::PreviousLeader => "du meneur du pli précédent",
                DummyFollower::FirstLeader => "du premier meneur de la manche",
            }
        ));
    }

    let rounds = plural(r.rounds, "manche", "manches");
    let target = r.target.unwrap_or(35);
    let scoring = vec![
        match r.scoring {
            Scoring::Basket => "Scores (perte = |pari − plis remportés|) : pari échoué : −perte ; pari réussi : 2 + panier + plis remportés ; le panier est la somme des pertes de ceux qui ont échoué.",
            Scoring::DoubleBasket if c.void => "Scores (perte = |pari − plis remportés|) : pari échoué : panier − perte ; pari réussi : 2 × panier + 2 + plis remportés (réussi avec Ø : sans les 2) ; le panier est la somme de toutes les pertes.",
            Scoring::DoubleBasket => "Scores (perte = |pari − plis remportés|) : pari échoué : panier − perte ; pari réussi : 2 × panier + 2 + plis remportés ; le panier est la somme de toutes les pertes.",
            Scoring::BidPlusTwo => "Scores : enchère échouée : −|enchère − plis remportés| ; réussie : enchère + 2.",
        }
        .to_string(),
        match r.end {
            EndRule::MinRounds => format!(
                "Fin : au moins {rounds} ; ensuite, le meilleur score, s'il est seul, gagne si son dernier pari est réussi. {}",
                if r.every_tie_replays {
                    "Toute égalité pour le meilleur score fait jouer une manche de plus."
                } else {
                    "Égalité : une manche de plus si un égalitaire a échoué ; sinon le plus de paris réussis, puis victoire partagée."
                }
            ),
            EndRule::MinRoundsStrict => format!("Fin : au moins {rounds} ; le gagnant doit avoir réussi son dernier pari et avoir strictement le meilleur score ; toute égalité fait jouer une manche de plus."),
            EndRule::Target => format!("Fin : le premier à atteindre {target} points à la fin d'une manche où son pari est réussi. Plusieurs à la fois : le plus de paris réussis, puis le plus de points, puis victoire partagée."),
            EndRule::FixedRounds => format!("Fin : exactement {rounds} ; le meilleur score gagne ; égalité : le plus d'enchères réussies, puis victoire partagée."),
        },
    ];

    let facts = c.facts(&FactWords {
        target: &|n| format!("Objectif : {n} points"),
        rounds: &|fixed| if fixed { rounds.clone() } else { format!("Au moins {rounds}") },
        passing: "Passe de cartes",
        two_decks: "Deux paquets",
        dummy: "Avec le Pantin",
        special: "Cartes spéciales",
        again: &|bets| format!("Si les {bets} font 7, on recommence"),
    });

    Summary {
        title: title(r.preset).to_string(),
        preset: Some(r.preset),
        sections: vec![
            Section::new("Les cartes", deck),
            Section::new("Cartes spéciales", special),
            Section::new("Une manche", round),
            Section::new("Scores et fin", scoring),
        ],
        facts,
    }
}

pub(super) fn seven(r: &crate::seven::SevenRules) -> Summary {
    let s = |x: &str| x.to_string();
    Summary {
        title: s("Seven — le jeu où l'on se défausse de ses cartes (2 à 8 joueurs)"),
        preset: None,
        sections: vec![
            Section::new(
                "Les cartes",
                vec![format!(
                    "Deux jeux de 52 cartes (104 cartes). Chacun en reçoit {} ; le reste forme la pioche, dont la carte du dessus, retournée, commence le talon (son effet ne s'applique pas). Le deuxième exemplaire d'une carte est marqué ′.",
                    r.hand_size
                )],
            ),
            Section::new(
                "Un tour",
                vec![s(
                    "Jouez un 8 ou une carte de la couleur demandée ou de la valeur de la carte du dessus. Si vous ne pouvez pas jouer, piochez une carte (cela termine votre tour).",
                )],
            ),
            Section::new(
                "Cartes spéciales",
                vec![
                    s("2 : le joueur suivant joue un 2 ou pioche 2 × (nombre de 2 d'affilée)."),
                    s("A♠ : le joueur suivant joue un A♠ ou pioche 5 × (nombre d'A♠ d'affilée)."),
                    s(
                        "7 : les suivants ne peuvent que jouer un 7 ou passer ; quand le tour revient au dernier joueur d'un 7, il joue n'importe quelle carte.",
                    ),
                    s(
                        "8 : joker : annoncez la nouvelle couleur demandée (pas quand un 2, un A♠ ou un 7 est en cours).",
                    ),
                    s("10 inverse le sens du jeu ; valet : le joueur suivant passe son tour."),
                ],
            ),
            Section::new(
                "Dernière carte",
                vec![s(
                    "Annoncez votre dernière carte en jouant l'avant-dernière. Sinon, tous les autres répondent en même temps s'ils vous dénoncent ; si l'un d'eux le fait, vous piochez 4.",
                )],
            ),
            Section::new(
                "Scores et fin",
                vec![
                    s(
                        "Qui n'a plus de carte gagne la manche ; les autres comptent leurs cartes : 2-7, 9, 10 leur valeur ; valet, dame, roi, as 10 ; A♠ 15 ; 8 zéro.",
                    ),
                    match r.limit {
                        Some(l) => format!(
                            "Au-dessus de {l}, on est éliminé ; à exactement {l}, on revient à 0 ; le dernier joueur en jeu gagne."
                        ),
                        None => s("Une seule manche : le plus petit total gagne."),
                    },
                ],
            ),
        ],
        facts: Vec::new(),
    }
}
