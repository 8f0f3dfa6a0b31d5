//! Behind a reverse proxy (`oh7 serve --trust-proxy CIDR…`): the client's address is read from
//! `Forwarded` (RFC 7239) or `X-Forwarded-For`, **only** when the connection comes from one of
//! the trusted networks. Every per-address limit and log line uses [`client_ip`]'s answer; a
//! header from anyone else is ignored, so nobody can pick the address their limits count.

use std::net::IpAddr;
use std::str::FromStr;

use axum::http::HeaderMap;

/// A network: an address and how many of its leading bits are the network's
/// (`10.0.0.0/8`, `fd00::/8`; a bare address is the network of that one address).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Cidr {
    net: IpAddr,
    bits: u8,
}

/// Why a `--trust-proxy` value is not a network.
#[derive(Debug, PartialEq, Eq, thiserror::Error)]
#[error("`{0}` is not an address or a network (10.0.0.0/8, 192.168.1.7, fd00::/8)")]
pub struct BadCidr(String);

impl FromStr for Cidr {
    type Err = BadCidr;

    fn from_str(s: &str) -> Result<Cidr, BadCidr> {
        let bad = || BadCidr(s.chars().take(60).collect());
        let (addr, bits) = match s.split_once('/') {
            Some((a, b)) => (a, Some(b.parse::<u8>().map_err(|_| bad())?)),
            None => (s, None),
        };
        let net: IpAddr = addr.parse().map_err(|_| bad())?;
        let max = if net.is_ipv4() { 32 } else { 128 };
        let bits = bits.unwrap_or(max);
        if bits > max {
            return Err(bad());
        }
        Ok(Cidr { net, bits })
    }
}

impl std::fmt::Display for Cidr {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}/{}", self.net, self.bits)
    }
}

impl Cidr {
    /// Whether `ip` is in this network (an IPv4 address written as IPv6, `::ffff:a.b.c.d`, is
    /// read as the IPv4 address).
    pub fn contains(&self, ip: IpAddr) -> bool {
        let (a, b, width) = match (self.net.to_canonical(), ip.to_canonical()) {
            (IpAddr::V4(n), IpAddr::V4(i)) => (u128::from(n.to_bits()), u128::from(i.to_bits()), 32),
            (IpAddr::V6(n), IpAddr::V6(i)) => (n.to_bits(), i.to_bits(), 128),
            _ => return false,
        };
        let bits = u32::from(self.bits);
        if bits == 0 {
            return true;
        }
        let shift = width - bits;
        (a >> shift) == (b >> shift)
    }
}

/// One hop's address as a proxy header writes it: `192.0.2.60`, `"[2001:db8::17]:4711"`,
/// `192.0.2.60:4711`; `None` for `unknown`, an obfuscated name or anything else.
fn hop(value: &str) -> Option<IpAddr> {
    let v = value.trim().trim_matches('"');
    if let Some(rest) = v.strip_prefix('[') {
        return rest.split_once(']').and_then(|(a, _)| a.parse().ok());
    }
    v.parse()
        .ok()
        .or_else(|| v.rsplit_once(':').and_then(|(a, _)| a.parse::<std::net::Ipv4Addr>().ok().map(IpAddr::V4)))
}

/// The hops a request came through, nearest the client first, as the proxies wrote them
/// (`Forwarded`'s `for=` if present, else `X-Forwarded-For`); an unreadable hop is `None`.
fn hops(headers: &HeaderMap) -> Vec<Option<IpAddr>> {
    let forwarded: Vec<&str> = headers.get_all("forwarded").iter().filter_map(|v| v.to_str().ok()).collect();
    if !forwarded.is_empty() {
        return forwarded
            .iter()
            .flat_map(|line| line.split(','))
            .map(|element| {
                element.split(';').find_map(|pair| {
                    let (k, v) = pair.split_once('=')?;
                    k.trim().eq_ignore_ascii_case("for").then(|| hop(v)).flatten()
                })
            })
            .collect();
    }
    headers
        .get_all("x-forwarded-for")
        .iter()
        .filter_map(|v| v.to_str().ok())
        .flat_map(|line| line.split(','))
        .map(hop)
        .collect()
}

/// The address a request is counted and logged under. From a peer outside `trusted`: the peer,
/// whatever its headers say. From a trusted proxy: walking the hops back from the proxy, the
/// first address that is not itself a trusted proxy (so a client cannot slip an address in
/// front of the ones the proxies wrote); a hop the proxies did not write readably stops the
/// walk at the last trusted address.
pub fn client_ip(peer: IpAddr, headers: &HeaderMap, trusted: &[Cidr]) -> IpAddr {
    let peer = peer.to_canonical();
    let is_trusted = |ip: IpAddr| trusted.iter().any(|c| c.contains(ip));
    if !is_trusted(peer) {
        return peer;
    }
    let mut last = peer;
    for h in hops(headers).into_iter().rev() {
        match h {
            Some(ip) => {
                let ip = ip.to_canonical();
                if !is_trusted(ip) {
                    return ip;
                }
                last = ip;
            }
            None => return last,
        }
    }
    last
}

#[cfg(test)]
mod tests {
    use super::*;

    fn headers(pairs: &[(&'static str, &'static str)]) -> HeaderMap {
        let mut h = HeaderMap::new();
        for (k, v) in pairs {
            h.append(*k, v.parse().unwrap());
        }
        h
    }

    fn ip(s: &str) -> IpAddr {
        s.parse().unwrap()
    }

    #[test]
    fn networks_are_read_and_matched() {
        let c: Cidr = "10.0.0.0/8".parse().unwrap();
        assert!(c.contains(ip("10.200.1.2")));
        assert!(!c.contains(ip("11.0.0.1")));
        assert!(c.contains(ip("::ffff:10.1.2.3")), "IPv4 written as IPv6");
        let one: Cidr = "192.168.1.7".parse().unwrap();
        assert!(one.contains(ip("192.168.1.7")) && !one.contains(ip("192.168.1.8")));
        let v6: Cidr = "fd00::/8".parse().unwrap();
        assert!(v6.contains(ip("fd12::1")) && !v6.contains(ip("fe80::1")));
        assert!("0.0.0.0/0".parse::<Cidr>().unwrap().contains(ip("8.8.8.8")));
        for bad in ["10.0.0.0/33", "fd00::/129", "proxy", "10.0.0/8", "10.0.0.0/x", ""] {
            assert!(bad.parse::<Cidr>().is_err(), "{bad}");
        }
    }

    #[test]
    fn a_header_from_an_untrusted_peer_changes_nothing() {
        let trusted = ["10.0.0.1".parse().unwrap()];
        let h = headers(&[("x-forwarded-for", "1.2.3.4"), ("forwarded", "for=5.6.7.8")]);
        assert_eq!(client_ip(ip("203.0.113.9"), &h, &trusted), ip("203.0.113.9"));
        assert_eq!(client_ip(ip("203.0.113.9"), &h, &[]), ip("203.0.113.9"));
    }

    #[test]
    fn from_the_trusted_proxy_the_client_is_the_last_untrusted_hop() {
        let trusted: Vec<Cidr> = vec!["10.0.0.0/8".parse().unwrap()];
        let proxy = ip("10.0.0.1");
        // The client wrote a false first hop; the proxy appended the address it saw.
        let h = headers(&[("x-forwarded-for", "6.6.6.6, 198.51.100.7")]);
        assert_eq!(client_ip(proxy, &h, &trusted), ip("198.51.100.7"));
        // Two proxies of ours in a row.
        let h = headers(&[("x-forwarded-for", "198.51.100.7, 10.0.0.2")]);
        assert_eq!(client_ip(proxy, &h, &trusted), ip("198.51.100.7"));
        // Forwarded wins over X-Forwarded-For, in its quoted, bracketed and ported forms.
        let h =
            headers(&[("forwarded", "for=\"[2001:db8:cafe::17]:4711\";proto=https"), ("x-forwarded-for", "1.1.1.1")]);
        assert_eq!(client_ip(proxy, &h, &trusted), ip("2001:db8:cafe::17"));
        let h = headers(&[("forwarded", "for=192.0.2.60:8080;by=10.0.0.1, for=10.0.0.3")]);
        assert_eq!(client_ip(proxy, &h, &trusted), ip("192.0.2.60"));
        // An unreadable hop stops the walk at the last trusted one; no header: the proxy.
        let h = headers(&[("forwarded", "for=unknown")]);
        assert_eq!(client_ip(proxy, &h, &trusted), proxy);
        assert_eq!(client_ip(proxy, &HeaderMap::new(), &trusted), proxy);
    }
}
