#!/usr/bin/env python3
"""DeployManifests.*: docker/compose.yaml, docker/haproxy.cfg, docker/Dockerfile's flags and
docker/k8s/ checked where no image can be built and no cluster runs (no container registry is
reachable from the machines this was written on). The files are parsed (python3-yaml), the
balancer's config is checked by HAProxy itself (`haproxy -c`), the nodes' entrypoint is run
with a stand-in server, and every flag the files give castra-server is looked up in its
--help, so that a renamed flag fails here rather than in a deployment.

  deploy_manifests_test.py --source DIR --server PATH NAME...   run the named checks
  deploy_manifests_test.py --list                                 print every check's name
tests/ops/CMakeLists.txt registers each name as the ctest test DeployManifests.NAME.
"""
import argparse
import functools
import ipaddress
import json
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path
from urllib.parse import urlparse


class Failure(Exception):
    pass


def expect(condition, message):
    if not condition:
        raise Failure(message)


# --- The files, parsed once -----------------------------------------------------------------

class Tree:
    def __init__(self, source, server):
        self.source = Path(source)
        self.server = server
        self.docker = self.source / "docker"

    # Compose interpolates "${NAME:-default}" and "$$" in every string before anything else;
    # a variable without a default would have to be set for the default server to start.
    @functools.cached_property
    def compose(self):
        raw = yaml.safe_load((self.docker / "compose.yaml").read_text())
        return interpolate(raw)

    def services(self):
        return self.compose["services"]

    def cluster_services(self):
        return {n: s for n, s in self.services().items() if "cluster" in s.get("profiles", [])}

    def nodes(self):
        nodes = {n: s for n, s in self.cluster_services().items()
                 if s.get("build", {}).get("dockerfile") == "docker/Dockerfile"}
        expect(len(nodes) == 3, f"the cluster profile has {len(nodes)} castra-server nodes "
               f"({sorted(nodes)}), not 3")
        return nodes

    def one_service(self, prefix):
        found = {n: s for n, s in self.cluster_services().items()
                 if s.get("image", "").startswith(prefix)}
        expect(len(found) == 1,
               f"the cluster profile has {len(found)} services of image {prefix}*, not 1")
        return next(iter(found.items()))

    def postgres(self):
        return self.one_service("postgres:15")

    def balancer(self):
        return self.one_service("haproxy:")

    @functools.cached_property
    def haproxy(self):
        return parse_haproxy((self.docker / "haproxy.cfg").read_text())

    @functools.cached_property
    def dockerfile_args(self):
        args = []
        for line in (self.docker / "Dockerfile").read_text().splitlines():
            for word in ("ENTRYPOINT", "CMD"):
                if line.startswith(word + " "):
                    args += json.loads(line[len(word):])
        expect(args[:1] == ["castra-server"], "the image's ENTRYPOINT is not castra-server")
        return args[1:]

    @functools.cached_property
    def k8s(self):
        docs = {}
        for path in sorted((self.docker / "k8s").iterdir()):
            if path.name == "README.md":
                continue
            expect(path.suffix == ".yaml", f"docker/k8s/{path.name} is neither YAML nor README.md")
            docs[path.name] = [d for d in yaml.safe_load_all(path.read_text()) if d is not None]
            expect(docs[path.name], f"docker/k8s/{path.name} holds no document")
        return docs

    def k8s_objects(self, kind, example=False):
        return [d for name, ds in self.k8s.items() for d in ds
                if d.get("kind") == kind and name.endswith(".example.yaml") == example]

    def deployment(self):
        deployments = self.k8s_objects("Deployment")
        expect(len(deployments) == 1, f"docker/k8s/ has {len(deployments)} Deployments, not 1")
        return deployments[0]

    def container(self):
        containers = self.deployment()["spec"]["template"]["spec"]["containers"]
        expect(len(containers) == 1, "the Deployment's pod has more than one container")
        return containers[0]

    def container_env(self):
        return {e["name"]: e for e in self.container().get("env", [])}

    @functools.cached_property
    def help_text(self):
        result = subprocess.run([self.server, "--help"], capture_output=True, text=True,
                                timeout=60)
        expect(result.returncode == 0, f"castra-server --help exited {result.returncode}")
        return result.stdout


def interpolate(value):
    if isinstance(value, dict):
        return {k: interpolate(v) for k, v in value.items()}
    if isinstance(value, list):
        return [interpolate(v) for v in value]
    if not isinstance(value, str):
        return value

    def substitute(m):
        if m.group(0) == "$$":
            return "$"
        if m.group(0) == "$":
            raise Failure(f"compose.yaml: a lone $ (compose refuses it; $$ is a $): {value!r}")
        if m.group(2) is None:
            raise Failure(f"compose.yaml needs {m.group(1) or m.group(3)} set (no default): {value!r}")
        return m.group(2)
    return re.sub(r"\$\$|\$\{([A-Za-z_]\w*)(?::-([^}]*))?\}|\$([A-Za-z_]\w*)|\$", substitute,
                  value)


def flags_of(args):
    """{flag: [values]} of a castra-server command line (`--flag=value` or `--flag value`)."""
    flags = {}
    i = 0
    while i < len(args):
        arg = args[i]
        expect(arg.startswith("--"), f"{arg!r} in {args} is not a flag")
        if "=" in arg:
            name, value = arg.split("=", 1)
        elif i + 1 < len(args) and not args[i + 1].startswith("--"):
            name, value = arg, args[i + 1]
            i += 1
        else:
            name, value = arg, None
        flags.setdefault(name, []).append(value)
        i += 1
    return flags


def one(flags, name, where):
    values = flags.get(name, [])
    expect(len(values) == 1, f"{where} gives {name} {len(values)} times, not once")
    return values[0]


def node_flags(tree, name):
    return flags_of(tree.services()[name]["command"])


def published(service, container_port):
    """The host port a compose service publishes for container_port."""
    for mapping in service.get("ports", []):
        host, _, inner = str(mapping).rpartition(":")
        if inner == str(container_port):
            return int(host)
    raise Failure(f"{container_port} is not published ({service.get('ports')})")


def seconds(duration):
    """A compose or HAProxy duration ("15s", "1h", "500ms"; HAProxy's bare number is ms)."""
    m = re.fullmatch(r"(\d+)(us|ms|s|m|h|d)?", str(duration))
    expect(m, f"{duration!r} is not a duration")
    scale = {"us": 1e-6, "ms": 1e-3, "s": 1, "m": 60, "h": 3600, "d": 86400, None: 1e-3}
    return int(m.group(1)) * scale[m.group(2)]


def parse_haproxy(text):
    """{"defaults": [[words]...], "frontend castra": [...], ...}: each section's lines."""
    sections = {}
    current = None
    for line in text.splitlines():
        words = line.split("#", 1)[0].split()
        if not words:
            continue
        if not line[0].isspace():
            current = " ".join(words)
            sections[current] = []
        else:
            expect(current is not None, f"haproxy.cfg: {line!r} outside any section")
            sections[current].append(words)
    return sections


def section(tree, kind):
    found = [lines for name, lines in tree.haproxy.items() if name.split()[0] == kind]
    expect(len(found) == 1, f"haproxy.cfg has {len(found)} {kind} sections, not 1")
    return found[0]


def default_backend(tree):
    names = [w[1] for w in section(tree, "frontend") if w[0] == "default_backend"]
    expect(len(names) == 1, "haproxy.cfg's frontend has no default_backend")
    lines = tree.haproxy.get(f"backend {names[0]}")
    expect(lines is not None, f"haproxy.cfg has no backend {names[0]}")
    return lines


def help_flags(tree):
    return set(re.findall(r"(?<![\w-])(--[a-z0-9][a-z0-9-]*)", tree.help_text))


def help_default(tree, flag):
    # CLI11 writes "--idle-timeout INT=60"; older versions "--idle-timeout INT [60]".
    m = re.search(re.escape(flag) + r"\s+[A-Z]+(?:=(\S+)|\s+\[([^\]]*)\])", tree.help_text)
    expect(m, f"castra-server --help shows no default for {flag}")
    return m.group(1) or m.group(2)


def env_ref(env, name, where):
    expect(name in env, f"{where} refers to $({name}), which the container's env does not set")
    return env[name].get("valueFrom", {})


def whole_reference(value, flag):
    m = re.fullmatch(r"\$\((\w+)\)", value or "")
    expect(m, f"the Deployment gives {flag}={value!r}, not one $(VARIABLE)")
    return m.group(1)


def container_port(tree, port):
    """The containerPort a probe or Service port (a name or a number) means."""
    for p in tree.container().get("ports", []):
        if port in (p.get("name"), p["containerPort"]):
            return p["containerPort"]
    raise Failure(f"{port!r} is no port of the container")


# --- The checks -----------------------------------------------------------------------------

CHECKS = {}


def check(fn):
    CHECKS["".join(w.capitalize() for w in fn.__name__.split("_"))] = fn
    return fn


@check
def compose_default_is_the_single_sqlite_server(tree):
    default = sorted(n for n, s in tree.services().items() if "profiles" not in s)
    expect(default == ["castra"], f"compose.yaml's services without a profile are {default}")
    castra = tree.services()["castra"]
    expect("command" not in castra and "entrypoint" not in castra,
           "the single server overrides the image's command: it should run the image's own")
    flags = flags_of(tree.dockerfile_args)
    expect("--store" not in flags, "the image's default command selects PostgreSQL")
    data_dir = one(flags, "--data-dir", "the image's default command")
    volumes = [str(v).split(":") for v in castra.get("volumes", [])]
    expect(any(v[1] == data_dir and v[0] in tree.compose.get("volumes", {}) for v in volumes),
           f"no named volume holds the single server's --data-dir {data_dir}")
    port = one(flags, "--port", "the image's default command")
    expect(published(castra, port) == 8080, "the single server is not on port 8080")
    expect(f"127.0.0.1:{port}/healthz" in " ".join(castra["healthcheck"]["test"]),
           "the single server's health check does not ask /healthz on its port")


@check
def cluster_profile_has_three_nodes_postgres_and_a_balancer(tree):
    nodes = tree.nodes()
    pg_name, pg = tree.postgres()
    lb_name, _ = tree.balancer()
    everything = set(nodes) | {pg_name, lb_name}
    expect(set(tree.cluster_services()) == everything,
           f"the cluster profile holds {sorted(set(tree.cluster_services()) - everything)} too")
    volumes = [str(v).split(":") for v in pg.get("volumes", [])]
    expect(any(v[1] == "/var/lib/postgresql/data" and v[0] in tree.compose.get("volumes", {})
               for v in volumes), "PostgreSQL's data is not on a named volume")
    expect("pg_isready" in pg["healthcheck"]["test"], "PostgreSQL's health check is not pg_isready")
    env = pg.get("environment", {})
    expect("POSTGRES_PASSWORD" not in env, "compose.yaml holds PostgreSQL's password itself")
    secret = env.get("POSTGRES_PASSWORD_FILE", "").removeprefix("/run/secrets/")
    expect(secret in pg.get("secrets", []), "PostgreSQL's password is not read from its secret")
    secret_file = tree.compose["secrets"][secret]["file"]
    expect(secret_file.startswith("./secrets/"), f"the password's file {secret_file} is not "
           "under docker/secrets/")
    ignored = (tree.source / ".gitignore").read_text().splitlines()
    expect("/docker/secrets/" in ignored, ".gitignore does not keep docker/secrets/ out of git")
    context = (tree.source / ".dockerignore").read_text().splitlines()
    expect("docker/secrets/" in context, ".dockerignore does not keep the password out of the "
           "image's build context")


@check
def cluster_nodes_share_one_store_with_their_own_identities(tree):
    pg_name, pg = tree.postgres()
    stores, ids, urls = set(), set(), set()
    for name, node in tree.nodes().items():
        flags = node_flags(tree, name)
        expect("--data-dir" not in flags, f"{name} gives --data-dir beside --store")
        store = urlparse(one(flags, "--store", name))
        expect(store.scheme == "postgresql" and store.hostname == pg_name and
               store.port in (None, 5432), f"{name}'s --store is not the {pg_name} service")
        expect(store.password is None, f"{name}'s --store holds the password")
        stores.add(store.geturl())
        node_id = one(flags, "--node-id", name)
        expect(re.fullmatch(r"[A-Za-z0-9_.-]{1,63}", node_id),
               f"{name}'s node id {node_id!r} is not 1-63 letters, digits, '-', '_', '.'")
        ids.add(node_id)
        public = urlparse(one(flags, "--public-url", name))
        port = int(one(flags, "--port", name))
        expect(public.scheme in ("ws", "wss") and public.path == "/ws",
               f"{name}'s --public-url {public.geturl()} is not a ws://HOST:PORT/ws URL")
        expect(public.port == published(node, port),
               f"{name}'s --public-url port is not the one it publishes for {port}")
        urls.add(public.geturl())
        expect(node["depends_on"][pg_name]["condition"] == "service_healthy",
               f"{name} starts before PostgreSQL is ready")
        expect(set(pg["secrets"]) <= set(node.get("secrets", [])),
               f"{name} does not get PostgreSQL's password")
        expect(f"127.0.0.1:{port}/healthz" in " ".join(node["healthcheck"]["test"]),
               f"{name}'s health check does not ask /healthz on its --port")
    expect(len(stores) == 1, f"the nodes are on different stores: {sorted(stores)}")
    expect(len(ids) == 3, f"the nodes' ids are not distinct: {sorted(ids)}")
    expect(len(urls) == 3, f"the nodes' public URLs are not distinct: {sorted(urls)}")


@check
def compose_node_entrypoint_hands_over_the_password_and_the_flags(tree):
    _, pg = tree.postgres()
    secret_path = pg["environment"]["POSTGRES_PASSWORD_FILE"]
    for name, node in tree.nodes().items():
        entrypoint = node["entrypoint"]
        expect(secret_path in " ".join(entrypoint), f"{name}'s entrypoint does not read "
               f"{secret_path}")
        with tempfile.TemporaryDirectory() as tmp:
            # A stand-in castra-server on PATH that shows what it was given.
            stand_in = Path(tmp) / "castra-server"
            stand_in.write_text('#!/bin/sh\nprintf "PGPASSWORD=%s\\n" "$PGPASSWORD"\n'
                                'printf "%s\\n" "$@"\n')
            stand_in.chmod(0o755)
            secret = Path(tmp) / "password"
            secret.write_text("pass word'\"$x\n")  # the trailing newline goes, as for PostgreSQL
            env = {"PATH": f"{tmp}:/usr/bin:/bin"}

            def run(path):
                argv = [a.replace(secret_path, str(path)) for a in entrypoint] + node["command"]
                return subprocess.run(argv, capture_output=True, text=True, env=env, timeout=30)
            result = run(secret)
            expect(result.returncode == 0, f"{name}'s entrypoint exited {result.returncode}: "
                   f"{result.stderr}")
            expect(result.stdout.splitlines() == ["PGPASSWORD=pass word'\"$x"] + node["command"],
                   f"{name}'s entrypoint handed over {result.stdout!r}")
            missing = run(Path(tmp) / "absent")
            expect(missing.returncode != 0 and missing.stdout == "",
                   f"{name}'s entrypoint starts the server without its password")


@check
def cluster_nodes_trust_only_the_balancer(tree):
    lb_name, lb = tree.balancer()
    networks = lb.get("networks", {})
    expect(isinstance(networks, dict) and len(networks) == 1,
           "the balancer is not on exactly one network with a fixed address")
    network, settings = next(iter(networks.items()))
    address = ipaddress.ip_address(settings["ipv4_address"])
    subnets = [ipaddress.ip_network(c["subnet"])
               for c in tree.compose["networks"][network]["ipam"]["config"]]
    expect(any(address in s for s in subnets), f"{address} is outside {network}'s subnet")
    for name, node in tree.nodes().items():
        expect(network in node.get("networks", []), f"{name} is not on {network}")
        proxies = node_flags(tree, name).get("--trusted-proxy", [])
        expect(proxies == [str(address)],
               f"{name} trusts {proxies}, not the balancer's address {address} alone")


@check
def balancer_forwards_websockets_and_the_client_address(tree):
    _, lb = tree.balancer()
    expect("./haproxy.cfg:/usr/local/etc/haproxy/haproxy.cfg:ro" in lb.get("volumes", []),
           "the balancer does not run docker/haproxy.cfg")
    defaults = section(tree, "defaults")
    frontend = section(tree, "frontend")
    backend = default_backend(tree)
    # HTTP mode forwards an upgrade with its Upgrade and Connection headers and then tunnels;
    # TCP mode would not set X-Forwarded-For, and a deleted header would break the upgrade.
    modes = {" ".join(w) for w in defaults + frontend + backend if w[0] == "mode"}
    expect(modes == {"mode http"}, f"haproxy.cfg's modes are {modes}, not http alone")
    for words in defaults + frontend + backend:
        expect(not (words[:2] == ["http-request", "del-header"] and
                    words[2].lower() in ("upgrade", "connection")),
               f"haproxy.cfg drops a header the upgrade needs: {' '.join(words)}")
    tunnel = [seconds(w[2]) for w in defaults + frontend + backend if w[:2] == ["timeout", "tunnel"]]
    idle = int(help_default(tree, "--idle-timeout"))
    expect(tunnel and min(tunnel) > idle, f"haproxy.cfg's timeout tunnel {tunnel} s would cut "
           f"a WebSocket the node keeps alive by pinging after {idle} s")
    # Set, not appended: the node reads the header's first line, which would be the client's.
    expect(["http-request", "set-header", "X-Forwarded-For", "%[src]"] in frontend,
           "the frontend does not set X-Forwarded-For to the client's address")
    expect(not any(w[:2] == ["option", "forwardfor"] for w in defaults + frontend + backend),
           "option forwardfor appends a second X-Forwarded-For after the client's own")
    binds = [w[1] for w in frontend if w[0] == "bind"]
    expect([b.rpartition(":")[2] for b in binds] == [str(lb["ports"][0]).rpartition(":")[2]],
           f"the frontend binds {binds}, not the port the balancer publishes")


@check
def balancer_checks_every_node_on_healthz(tree):
    backend = default_backend(tree)
    expect(["option", "httpchk"] in backend or ["option", "httpchk", "GET", "/healthz"] in backend,
           "the backend has no HTTP health check")
    expect(["option", "httpchk", "GET", "/healthz"] in backend or
           ["http-check", "send", "meth", "GET", "uri", "/healthz"] in backend,
           "the backend's health check does not ask GET /healthz")
    expect(["http-check", "expect", "status", "200"] in backend,
           "the backend's health check does not want 200")
    checked_by_default = any(w[0] == "default-server" and "check" in w for w in backend)
    servers = {}
    for words in backend:
        if words[0] == "server":
            host, _, port = words[2].rpartition(":")
            servers[host] = int(port)
            expect(checked_by_default or "check" in words, f"server {words[1]} is not checked")
    wanted = {name: int(one(node_flags(tree, name), "--port", name)) for name in tree.nodes()}
    expect(servers == wanted, f"the backend's servers are {servers}, the nodes {wanted}")


@check
def haproxy_accepts_the_balancer_config(tree):
    haproxy = shutil.which("haproxy")
    expect(haproxy, "haproxy is not installed (tools/dev installs it)")
    result = subprocess.run([haproxy, "-c", "-f", str(tree.docker / "haproxy.cfg")],
                            capture_output=True, text=True, timeout=60)
    expect(result.returncode == 0, f"haproxy -c refuses docker/haproxy.cfg:\n{result.stderr}")


@check
def kubernetes_manifests_all_parse_and_are_listed(tree):
    for name, docs in tree.k8s.items():
        for doc in docs:
            expect(doc.get("apiVersion") and doc.get("kind"), f"{name}: a document without kind")
            expect(doc["kind"] == "Kustomization" or doc.get("metadata", {}).get("name"),
                   f"{name}: a {doc['kind']} without a name")
    kustomization = tree.k8s.get("kustomization.yaml")
    expect(kustomization, "docker/k8s/ has no kustomization.yaml")
    listed = set(kustomization[0]["resources"])
    manifests = {n for n in tree.k8s if n != "kustomization.yaml" and not n.endswith(".example.yaml")}
    expect(listed == manifests, f"kustomization.yaml lists {sorted(listed)}, docker/k8s/ holds "
           f"{sorted(manifests)} (examples are never listed)")
    expect(any(n.endswith(".example.yaml") for n in tree.k8s),
           "docker/k8s/ has no example Secret")


@check
def kubernetes_deployment_runs_three_nodes_behind_the_service(tree):
    deployment = tree.deployment()
    expect(deployment["spec"]["replicas"] == 3, "the Deployment does not run 3 nodes")
    labels = deployment["spec"]["template"]["metadata"]["labels"]
    selector = deployment["spec"]["selector"]["matchLabels"]
    expect(selector.items() <= labels.items(), "the Deployment's selector misses its own pods")
    services = tree.k8s_objects("Service")
    expect(len(services) == 1, f"docker/k8s/ has {len(services)} Services, not 1")
    service = services[0]["spec"]
    expect(service["selector"].items() <= labels.items(), "the Service selects no node")
    port = int(one(flags_of(tree.container()["args"]), "--port", "the Deployment"))
    for p in service["ports"]:
        expect(container_port(tree, p["targetPort"]) == port,
               f"the Service sends to {p['targetPort']}, not the server's --port {port}")
    expect(tree.container()["image"] in [i["name"] for i in tree.k8s["kustomization.yaml"][0]
                                         .get("images", [])],
           "the kustomization does not name the Deployment's image")


@check
def kubernetes_probes_hit_healthz_on_the_server_port(tree):
    container = tree.container()
    port = int(one(flags_of(container["args"]), "--port", "the Deployment"))
    for probe in ("readinessProbe", "livenessProbe", "startupProbe"):
        if probe == "startupProbe" and probe not in container:
            continue
        expect(probe in container, f"the container has no {probe}")
        get = container[probe].get("httpGet", {})
        expect(get.get("path") == "/healthz", f"the {probe} does not ask /healthz")
        expect(container_port(tree, get.get("port")) == port,
               f"the {probe} asks port {get.get('port')}, not the server's --port {port}")


@check
def kubernetes_store_url_comes_from_a_secret(tree):
    env = tree.container_env()
    flags = flags_of(tree.container()["args"])
    secrets = {s["metadata"]["name"]: s for s in tree.k8s_objects("Secret", example=True)}
    expect(not tree.k8s_objects("Secret"), "docker/k8s/ holds a Secret that is not an example")
    store_variable = whole_reference(one(flags, "--store", "the Deployment"), "--store")
    refs = {}
    for variable in (store_variable, "PGPASSWORD"):
        ref = env_ref(env, variable, "the Deployment").get("secretKeyRef")
        expect(ref, f"{variable} does not come from a Secret")
        expect(ref["name"] in secrets and ref["key"] in secrets[ref["name"]]["stringData"],
               f"{variable} comes from {ref}, which no example Secret shows")
        refs[variable] = secrets[ref["name"]]["stringData"][ref["key"]]
    store_url = urlparse(refs[store_variable])
    expect(store_url.scheme == "postgresql" and store_url.password is None,
           "the example Secret's URL is not a postgresql:// URL without a password")
    expect("PLACEHOLDER" in refs["PGPASSWORD"], "the example Secret's password is not a "
           "placeholder")
    for e in env.values():
        expect("postgres" not in str(e.get("value", "")), f"{e['name']} holds the store itself")


@check
def kubernetes_node_id_is_the_pod_name(tree):
    env = tree.container_env()
    flags = flags_of(tree.container()["args"])
    node_id = whole_reference(one(flags, "--node-id", "the Deployment"), "--node-id")
    expect(env_ref(env, node_id, "--node-id").get("fieldRef", {}).get("fieldPath") ==
           "metadata.name", "the node id is not the pod's name")
    public = one(flags, "--public-url", "the Deployment")
    m = re.fullmatch(r"ws://\$\((\w+)\):(\d+)/ws", public)
    expect(m, f"--public-url {public} is not ws://$(HOST):PORT/ws")
    expect(env_ref(env, m.group(1), "--public-url").get("fieldRef", {}).get("fieldPath") ==
           "status.hostIP", "the public URL's host is not the pod's machine")
    host_ports = [p.get("hostPort") for p in tree.container()["ports"]]
    expect(int(m.group(2)) in host_ports, f"the public URL's port {m.group(2)} is not the "
           f"container's hostPort {host_ports}")


@check
def grace_periods_cover_the_server_shutdown(tree):
    container = tree.container()
    spec = tree.deployment()["spec"]["template"]["spec"]
    grace = int(one(flags_of(container["args"]), "--shutdown-grace", "the Deployment"))
    pre_stop = container.get("lifecycle", {}).get("preStop", {}).get("exec", {}).get("command", [])
    sleep = int(pre_stop[1]) if pre_stop[:1] == ["sleep"] else 0
    # SIGKILL comes terminationGracePeriodSeconds after preStop began: room for the sleep,
    # the sessions' grace, and the last commits (a few seconds).
    expect(spec["terminationGracePeriodSeconds"] >= sleep + grace + 5,
           f"terminationGracePeriodSeconds {spec['terminationGracePeriodSeconds']} < preStop "
           f"{sleep} + --shutdown-grace {grace} + 5")
    requests = container.get("resources", {}).get("requests", {})
    expect({"cpu", "memory"} <= requests.keys(), "the container requests no cpu or memory")
    for name, node in tree.nodes().items():
        node_grace = int(one(node_flags(tree, name), "--shutdown-grace", name))
        expect(seconds(node["stop_grace_period"]) >= node_grace + 5,
               f"{name}'s stop_grace_period is shorter than --shutdown-grace {node_grace} + 5")


@check
def manifests_use_only_flags_the_server_accepts(tree):
    accepted = help_flags(tree)
    expect("--store" in accepted and "--data-dir" in accepted,
           f"castra-server --help lists no --store or --data-dir:\n{tree.help_text}")
    given = {"the image's default command": tree.dockerfile_args,
             "the Deployment": tree.container()["args"]}
    given.update({name: node["command"] for name, node in tree.nodes().items()})
    env = tree.container_env()
    for where, args in given.items():
        for flag in flags_of(args):
            expect(flag in accepted, f"{where} gives {flag}, which castra-server does not accept")
        for variable in re.findall(r"\$\((\w+)\)", " ".join(args)):
            env_ref(env, variable, where)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--source")
    parser.add_argument("--server")
    parser.add_argument("--list", action="store_true")
    parser.add_argument("names", nargs="*")
    args = parser.parse_args()
    if args.list:
        print("\n".join(CHECKS))
        return 0
    # Imported only now: CMake lists the checks at configure time, with python3 alone.
    global yaml
    import yaml
    if not args.source or not args.server or not args.names:
        parser.error("--source, --server and at least one check name are needed")
    tree = Tree(args.source, args.server)
    failed = 0
    for name in args.names:
        if name not in CHECKS:
            print(f"no check {name}", file=sys.stderr)
            return 2
        try:
            CHECKS[name](tree)
            print(f"[  PASSED  ] DeployManifests.{name}")
        except (Failure, KeyError, TypeError, ValueError, IndexError) as e:
            # A missing or mistyped key in a file is a finding about the file, said as one.
            kind = "" if isinstance(e, Failure) else f"{type(e).__name__} "
            print(f"[  FAILED  ] DeployManifests.{name}: {kind}{e}", file=sys.stderr)
            failed += 1
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
