package benches

import (
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"testing"
)

// The objects of the fieldmanager suite: what kubectl applies, the changed manifest, and what a
// controller writes. Built here and written to ../data/fieldmanager (TestFieldManagerData checks
// that the files are what these functions build; -update-fieldmanager-data rewrites them). Both
// benchmarks read the files, never these functions.

// fmDataDir holds one file per object, <name>.json, and objects.json, the names in order.
const fmDataDir = "../data/fieldmanager"

var updateFMData = flag.Bool("update-fieldmanager-data", false, "rewrite "+fmDataDir)

type obj = map[string]any
type list = []any

// fmObjectFile is the content of <name>.json.
type fmObjectFile struct {
	// Controller is who writes the controller's updates, and through which subresource ("" for
	// the main resource).
	Controller struct {
		Manager     string `json:"manager"`
		Subresource string `json:"subresource"`
	} `json:"controller"`
	// Manifest is what kubectl applies (create by apply, then the no-op re-apply).
	Manifest obj `json:"manifest"`
	// Changed is Manifest with one value changed (an image bump, a ConfigMap value).
	Changed obj `json:"changed"`
	// ControllerPatches are JSON merge patches (RFC 7386) applied to the stored object to make
	// the controller's update: the first makes the stored object of the benchmarks, the second
	// is the update benchmark's.
	ControllerPatches []obj `json:"controllerPatches"`
}

type fmObjectSpec struct {
	name string
	file fmObjectFile
}

func shopLabels() obj {
	return obj{"app.kubernetes.io/name": "web", "app.kubernetes.io/part-of": "shop"}
}

func resources(cpuReq, memReq, cpuLim, memLim string) obj {
	return obj{
		"requests": obj{"cpu": cpuReq, "memory": memReq},
		"limits":   obj{"cpu": cpuLim, "memory": memLim},
	}
}

func port(name string, n int) obj {
	return obj{"name": name, "containerPort": n, "protocol": "TCP"}
}

func restricted() obj {
	return obj{
		"allowPrivilegeEscalation": false,
		"readOnlyRootFilesystem":   true,
		"capabilities":             obj{"drop": list{"ALL"}},
	}
}

// webContainers are the three containers of the web pod: the application, its proxy and a log
// shipper; then `workers` more, as a big pod has them.
func webContainers(image string, workers int) list {
	cs := list{
		obj{
			"name":            "app",
			"image":           image,
			"imagePullPolicy": "IfNotPresent",
			"args":            list{"--port=8080", "--metrics-port=9090", "--log-format=json"},
			"ports":           list{port("http", 8080), port("metrics", 9090)},
			"env": list{
				obj{"name": "LOG_LEVEL", "value": "info"},
				obj{"name": "DB_HOST", "value": "postgres.shop.svc.cluster.local"},
				obj{"name": "DB_PASSWORD", "valueFrom": obj{"secretKeyRef": obj{"name": "web-db", "key": "password"}}},
				obj{"name": "POD_NAME", "valueFrom": obj{"fieldRef": obj{"fieldPath": "metadata.name"}}},
				obj{"name": "GOMAXPROCS", "valueFrom": obj{"resourceFieldRef": obj{"resource": "limits.cpu", "divisor": "1"}}},
			},
			"resources": resources("250m", "256Mi", "1", "512Mi"),
			"readinessProbe": obj{
				"httpGet":          obj{"path": "/healthz/ready", "port": "http"},
				"periodSeconds":    5,
				"failureThreshold": 3,
			},
			"livenessProbe": obj{
				"httpGet":             obj{"path": "/healthz/live", "port": "http"},
				"initialDelaySeconds": 10,
				"periodSeconds":       10,
			},
			"volumeMounts": list{
				obj{"name": "config", "mountPath": "/etc/web", "readOnly": true},
				obj{"name": "tmp", "mountPath": "/tmp"},
			},
			"securityContext": restricted(),
		},
		obj{
			"name":      "envoy",
			"image":     "registry.example/envoyproxy/envoy:v1.31.2",
			"args":      list{"-c", "/etc/envoy/envoy.yaml", "--log-level", "warn"},
			"ports":     list{port("https", 8443), port("admin", 9901)},
			"resources": resources("100m", "64Mi", "500m", "128Mi"),
			"readinessProbe": obj{
				"httpGet":       obj{"path": "/ready", "port": "admin"},
				"periodSeconds": 5,
			},
			"volumeMounts": list{
				obj{"name": "envoy-config", "mountPath": "/etc/envoy", "readOnly": true},
				obj{"name": "tls", "mountPath": "/etc/tls", "readOnly": true},
			},
			"securityContext": restricted(),
		},
		obj{
			"name":      "log-shipper",
			"image":     "registry.example/fluent/fluent-bit:3.1.9",
			"args":      list{"--config=/fluent-bit/etc/fluent-bit.yaml"},
			"env":       list{obj{"name": "NODE_NAME", "valueFrom": obj{"fieldRef": obj{"fieldPath": "spec.nodeName"}}}},
			"resources": resources("50m", "32Mi", "200m", "64Mi"),
			"volumeMounts": list{
				obj{"name": "fluent-bit-config", "mountPath": "/fluent-bit/etc", "readOnly": true},
				obj{"name": "tmp", "mountPath": "/var/log/app", "readOnly": true},
			},
			"securityContext": restricted(),
		},
	}
	for i := 0; i < workers; i++ {
		cs = append(cs, obj{
			"name":  fmt.Sprintf("worker-%02d", i),
			"image": fmt.Sprintf("registry.example/shop/worker:2.%d.0", i%7),
			"args":  list{fmt.Sprintf("--queue=orders-%02d", i), "--concurrency=4"},
			"ports": list{port("metrics", 10000+i)},
			"env": list{
				obj{"name": "QUEUE_URL", "value": fmt.Sprintf("amqp://rabbitmq.shop.svc:5672/orders-%02d", i)},
				obj{"name": "WORKER_INDEX", "value": fmt.Sprint(i)},
			},
			"resources":       resources("100m", "128Mi", "500m", "256Mi"),
			"volumeMounts":    list{obj{"name": "tmp", "mountPath": "/tmp"}},
			"securityContext": restricted(),
		})
	}
	return cs
}

// webPodSpec is the pod of the web Deployment (and the Pod object).
func webPodSpec(image string, workers int) obj {
	return obj{
		"serviceAccountName":            "web",
		"terminationGracePeriodSeconds": 30,
		"securityContext": obj{
			"runAsNonRoot":   true,
			"runAsUser":      10001,
			"fsGroup":        10001,
			"seccompProfile": obj{"type": "RuntimeDefault"},
		},
		"nodeSelector": obj{"kubernetes.io/os": "linux"},
		"tolerations": list{
			obj{"key": "dedicated", "operator": "Equal", "value": "web", "effect": "NoSchedule"},
		},
		"topologySpreadConstraints": list{obj{
			"maxSkew":           1,
			"topologyKey":       "topology.kubernetes.io/zone",
			"whenUnsatisfiable": "ScheduleAnyway",
			"labelSelector":     obj{"matchLabels": obj{"app.kubernetes.io/name": "web"}},
		}},
		"initContainers": list{obj{
			"name":            "migrate",
			"image":           image,
			"command":         list{"/app/migrate", "--wait-for-db=60s"},
			"envFrom":         list{obj{"secretRef": obj{"name": "web-db"}}},
			"resources":       resources("100m", "64Mi", "500m", "128Mi"),
			"securityContext": restricted(),
		}},
		"containers": webContainers(image, workers),
		"volumes": list{
			obj{"name": "config", "configMap": obj{"name": "web-config"}},
			obj{"name": "envoy-config", "configMap": obj{"name": "web-envoy"}},
			obj{"name": "fluent-bit-config", "configMap": obj{"name": "web-fluent-bit"}},
			obj{"name": "tls", "secret": obj{"secretName": "web-tls", "defaultMode": 256}},
			obj{"name": "tmp", "emptyDir": obj{"sizeLimit": "1Gi"}},
		},
	}
}

const (
	webImage    = "registry.example/shop/web:1.4.2"
	webImageNew = "registry.example/shop/web:1.4.3"
)

func deployment(name string, image string, workers int) obj {
	return obj{
		"apiVersion": "apps/v1",
		"kind":       "Deployment",
		"metadata": obj{
			"name":      name,
			"namespace": "shop",
			"labels": obj{
				"app.kubernetes.io/name":    "web",
				"app.kubernetes.io/part-of": "shop",
				"team":                      "storefront",
			},
			"annotations": obj{
				"example.com/owner":   "storefront-team",
				"example.com/runbook": "https://runbooks.example/shop/web",
			},
		},
		"spec": obj{
			"replicas":                3,
			"revisionHistoryLimit":    5,
			"progressDeadlineSeconds": 600,
			"selector":                obj{"matchLabels": obj{"app.kubernetes.io/name": "web"}},
			"strategy": obj{
				"type":          "RollingUpdate",
				"rollingUpdate": obj{"maxSurge": "25%", "maxUnavailable": 0},
			},
			"template": obj{
				"metadata": obj{
					"labels":      shopLabels(),
					"annotations": obj{"prometheus.io/scrape": "true", "prometheus.io/port": "9090"},
				},
				"spec": webPodSpec(image, workers),
			},
		},
	}
}

func condition(typ, status, reason, message, at string) obj {
	return obj{
		"type":               typ,
		"status":             status,
		"reason":             reason,
		"message":            message,
		"lastUpdateTime":     at,
		"lastTransitionTime": at,
	}
}

// deploymentObject is the web Deployment with `workers` containers after its three, under the
// benchmark name `name`.
func deploymentObject(name string, workers int) fmObjectSpec {
	var f fmObjectFile
	f.Controller.Manager = "kube-controller-manager"
	f.Controller.Subresource = "status"
	f.Manifest = deployment("web", webImage, workers)
	f.Changed = deployment("web", webImageNew, workers)
	f.ControllerPatches = []obj{
		{"status": obj{
			"observedGeneration":  1,
			"replicas":            3,
			"updatedReplicas":     3,
			"readyReplicas":       2,
			"availableReplicas":   2,
			"unavailableReplicas": 1,
			"conditions": list{
				condition("Available", "False", "MinimumReplicasUnavailable", "Deployment does not have minimum availability.", "2026-12-01T10:00:05Z"),
				condition("Progressing", "True", "ReplicaSetUpdated", `ReplicaSet "web-5d8f7c9b6d" is progressing.`, "2026-12-01T10:00:05Z"),
			},
		}},
		{"status": obj{
			"readyReplicas":       3,
			"availableReplicas":   3,
			"unavailableReplicas": nil,
			"conditions": list{
				condition("Available", "True", "MinimumReplicasAvailable", "Deployment has minimum availability.", "2026-12-01T10:00:31Z"),
				condition("Progressing", "True", "NewReplicaSetAvailable", `ReplicaSet "web-5d8f7c9b6d" has successfully progressed.`, "2026-12-01T10:00:31Z"),
			},
		}},
	}
	return fmObjectSpec{name, f}
}

func pod(image string) obj {
	return obj{
		"apiVersion": "v1",
		"kind":       "Pod",
		"metadata": obj{
			"name":      "web-0",
			"namespace": "shop",
			"labels":    shopLabels(),
			"annotations": obj{
				"prometheus.io/scrape": "true",
				"prometheus.io/port":   "9090",
			},
		},
		"spec": webPodSpec(image, 0),
	}
}

func podCondition(typ, status, at string) obj {
	return obj{"type": typ, "status": status, "lastProbeTime": nil, "lastTransitionTime": at}
}

func containerStatus(name, image string, ready bool, restarts int, startedAt string) obj {
	return obj{
		"name":         name,
		"image":        image,
		"imageID":      image + "@sha256:" + fmt.Sprintf("%064x", len(name)*7919),
		"containerID":  "containerd://" + fmt.Sprintf("%064x", len(name)*104729),
		"ready":        ready,
		"started":      true,
		"restartCount": restarts,
		"state":        obj{"running": obj{"startedAt": startedAt}},
	}
}

func podObject() fmObjectSpec {
	var f fmObjectFile
	f.Controller.Manager = "kubelet"
	f.Controller.Subresource = "status"
	f.Manifest = pod(webImage)
	f.Changed = pod(webImageNew)
	started := "2026-12-01T10:00:04Z"
	f.ControllerPatches = []obj{
		{"status": obj{
			"phase":     "Running",
			"qosClass":  "Burstable",
			"hostIP":    "10.0.3.17",
			"hostIPs":   list{obj{"ip": "10.0.3.17"}},
			"podIP":     "10.244.3.42",
			"podIPs":    list{obj{"ip": "10.244.3.42"}},
			"startTime": "2026-12-01T10:00:00Z",
			"conditions": list{
				podCondition("PodReadyToStartContainers", "True", "2026-12-01T10:00:02Z"),
				podCondition("Initialized", "True", "2026-12-01T10:00:03Z"),
				podCondition("Ready", "True", "2026-12-01T10:00:09Z"),
				podCondition("ContainersReady", "True", "2026-12-01T10:00:09Z"),
				podCondition("PodScheduled", "True", "2026-12-01T10:00:00Z"),
			},
			"initContainerStatuses": list{obj{
				"name":         "migrate",
				"image":        webImage,
				"imageID":      webImage + "@sha256:" + fmt.Sprintf("%064x", 42),
				"containerID":  "containerd://" + fmt.Sprintf("%064x", 4242),
				"ready":        true,
				"started":      false,
				"restartCount": 0,
				"state": obj{"terminated": obj{
					"exitCode":    0,
					"reason":      "Completed",
					"startedAt":   "2026-12-01T10:00:02Z",
					"finishedAt":  "2026-12-01T10:00:03Z",
					"containerID": "containerd://" + fmt.Sprintf("%064x", 4242),
				}},
			}},
			"containerStatuses": list{
				containerStatus("app", webImage, true, 0, started),
				containerStatus("envoy", "registry.example/envoyproxy/envoy:v1.31.2", true, 0, started),
				containerStatus("log-shipper", "registry.example/fluent/fluent-bit:3.1.9", true, 0, started),
			},
		}},
		// The app container was OOM-killed and restarted: not ready for a moment.
		{"status": obj{
			"conditions": list{
				podCondition("PodReadyToStartContainers", "True", "2026-12-01T10:00:02Z"),
				podCondition("Initialized", "True", "2026-12-01T10:00:03Z"),
				podCondition("Ready", "False", "2026-12-01T11:20:15Z"),
				podCondition("ContainersReady", "False", "2026-12-01T11:20:15Z"),
				podCondition("PodScheduled", "True", "2026-12-01T10:00:00Z"),
			},
			"containerStatuses": list{
				func() obj {
					s := containerStatus("app", webImage, false, 1, "2026-12-01T11:20:15Z")
					s["lastState"] = obj{"terminated": obj{
						"exitCode":   137,
						"reason":     "OOMKilled",
						"startedAt":  started,
						"finishedAt": "2026-12-01T11:20:14Z",
					}}
					return s
				}(),
				containerStatus("envoy", "registry.example/envoyproxy/envoy:v1.31.2", true, 0, started),
				containerStatus("log-shipper", "registry.example/fluent/fluent-bit:3.1.9", true, 0, started),
			},
		}},
	}
	return fmObjectSpec{"Pod", f}
}

// changedKey is the key whose value the changed ConfigMap manifest changes.
const changedKey = 42

func configMap(keys int, changed bool) obj {
	data := obj{}
	for i := 0; i < keys; i++ {
		v := fmt.Sprintf("value of setting %d: the quick brown fox jumps over the lazy dog", i)
		if changed && i == changedKey {
			v = fmt.Sprintf("new value of setting %d", i)
		}
		data[fmt.Sprintf("setting-%04d", i)] = v
	}
	return obj{
		"apiVersion": "v1",
		"kind":       "ConfigMap",
		"metadata": obj{
			"name":      "web-settings",
			"namespace": "shop",
			"labels":    shopLabels(),
		},
		"data": data,
	}
}

func configMapObject(keys int) fmObjectSpec {
	var f fmObjectFile
	f.Controller.Manager = "checksum-controller"
	f.Manifest = configMap(keys, false)
	f.Changed = configMap(keys, true)
	f.ControllerPatches = []obj{
		{"metadata": obj{"annotations": obj{"example.com/checksum": "sha256:" + fmt.Sprintf("%064x", keys)}}},
		{"metadata": obj{"annotations": obj{"example.com/checksum": "sha256:" + fmt.Sprintf("%064x", keys+1)}}},
	}
	return fmObjectSpec{fmt.Sprintf("ConfigMap-%d", keys), f}
}

// fmObjectSpecs are the suite's objects, in benchmark order.
func fmObjectSpecs() []fmObjectSpec {
	return []fmObjectSpec{
		deploymentObject("Deployment", 0),
		podObject(),
		configMapObject(100),
		configMapObject(1000),
		// 3 + 97 workers: 100 containers.
		deploymentObject("Deployment-100", 97),
	}
}

func encodeFMFile(v any) ([]byte, error) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", " ")
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

// TestFieldManagerData checks that ../data/fieldmanager holds what the builders above build
// (with -update-fieldmanager-data: writes it).
func TestFieldManagerData(t *testing.T) {
	specs := fmObjectSpecs()
	files := map[string][]byte{}
	var names []string
	for _, s := range specs {
		b, err := encodeFMFile(s.file)
		if err != nil {
			t.Fatal(err)
		}
		files[s.name+".json"] = b
		names = append(names, s.name)
	}
	idx, err := encodeFMFile(names)
	if err != nil {
		t.Fatal(err)
	}
	files["objects.json"] = idx
	for name, want := range files {
		path := filepath.Join(fmDataDir, name)
		if *updateFMData {
			if err := os.MkdirAll(fmDataDir, 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(path, want, 0o644); err != nil {
				t.Fatal(err)
			}
			continue
		}
		got, err := os.ReadFile(path)
		if err != nil {
			t.Fatalf("%v (run with -update-fieldmanager-data to write it)", err)
		}
		if !bytes.Equal(got, want) {
			t.Errorf("%s is not what the builders build (run with -update-fieldmanager-data)", path)
		}
	}
}
